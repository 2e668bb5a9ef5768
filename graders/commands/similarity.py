"""`grade similarity ID PATHS`: pairs of students whose code overlaps (never changes a mark)."""

from __future__ import annotations

from pathlib import Path

import click

from graders import console
from graders.commands import register
from graders.pack import get_pack
from graders.similarity import collect_sources, similar_pairs, starter_sources


@register
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
