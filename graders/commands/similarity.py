"""`grade similarity ID PATHS`: pairs of students whose code overlaps (never changes a mark)."""

from __future__ import annotations

from pathlib import Path

import click

from graders import console
from graders.errors import GraderError
from graders.pack import Pack, get_pack
from graders.similarity import similar_pairs
from graders.submissions import find_submissions, prepare


@click.command("similarity")
@click.argument("assignment")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--threshold", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Report pairs whose shared share of code is at least this.")
def command(assignment: str, paths: tuple[Path, ...], threshold: float) -> None:
    """List pairs of submissions under PATHS whose code overlaps, most similar first; the
    starter files count as shared boilerplate."""
    pack = get_pack(assignment)
    pairs = similar_pairs(collect_sources(pack, paths), starter_sources(pack), threshold=threshold)
    for pair in pairs:
        console.out.print(
            f"{pair.similarity:6.1%}  {pair.first}  ~  {pair.second}  "
            f"({pair.shared_tokens} tokens)", markup=False,
        )
    if not pairs:
        console.out.print(f"No pair at or above {threshold:.0%}.", markup=False)


def collect_sources(pack: Pack, paths: tuple[Path, ...]) -> dict[str, dict[str, str]]:
    """Each student's Python files, collected as grading collects them (never run)."""
    import tempfile

    found: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="grade-similarity-") as work:
        for index, source in enumerate(s for p in paths for s in find_submissions(p)):
            submission = prepare(source, pack, Path(work) / str(index))
            if submission.id in found:
                raise GraderError(f"two submissions are called {submission.id!r}")
            found[submission.id] = dict(submission.files)
    return found


def starter_sources(pack: Pack) -> dict[str, str]:
    """The starter kit's Python files and templates, by name."""
    spec = pack.declaration.submission
    names = {*spec.templates.values(), *pack.declaration.locked.files}
    return {name: pack.template_text(name) for name in sorted(names)
            if name.endswith((".py", ".template"))}
