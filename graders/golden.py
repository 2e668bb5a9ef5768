"""Golden files: outputs of the reference solution, made by ``grade golden``.

A pack declares its golden files as ``[[golden]]`` tables in ``assignment.toml`` (name, runs
with argv/stdin/inputs, public, joiner); what data cannot say (a command built from the
driver's source, say) comes from ``graders/packs/<id>/golden.py``: a function
``golden_files(pack) -> list[GoldenFile]``, added after the declared ones. Public golden
files (that the handout gives students, like a handout's sample transcript) go to
``student_templates/<id>/``; hidden ones to ``fixtures/<id>/golden/``. The reference runs in
the sandbox like any submission.
"""

from __future__ import annotations

import importlib
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from graders.errors import GraderError
from graders.pack import Pack
from graders.results import write_atomic
from graders.sandbox import Sandbox
from graders.tools import environment_mount

# The reference is the instructor's own code: its CPU limit stops one that runs away, and its
# wall clock may stretch this much on a loaded machine (a transcript of about 10 s of search
# under a 20 s limit overran it while a test suite shared the machine).
REFERENCE_WALL_FACTOR = 4


@dataclass(frozen=True)
class GoldenRun:
    """One run of a program in the reference workspace."""

    argv: list[str]
    stdin: str = ""
    inputs: tuple[str, ...] = ()  # hidden files of fixtures/<id>/inputs/ this run also sees


@dataclass(frozen=True)
class GoldenFile:
    """A golden file: the joined stdout of its runs."""

    name: str
    runs: list[GoldenRun] = field(default_factory=list)
    public: bool = False
    joiner: str = ""


def golden_files(pack: Pack) -> list[GoldenFile]:
    """The pack's golden recipe: its ``[[golden]]`` declarations, then its ``golden.py``'s."""
    found = [
        GoldenFile(spec.name, [GoldenRun(run.argv, run.stdin, tuple(run.inputs))
                               for run in spec.runs], spec.public, spec.joiner)
        for spec in pack.declaration.golden
    ]
    if (pack.dir / "golden.py").is_file():
        module = importlib.import_module(f"graders.packs.{pack.id}.golden")  # harness code
        found += module.golden_files(pack)
    return found


def golden_file(pack: Pack, name: str) -> GoldenFile:
    """The golden file ``name`` of the pack (its runs replay a submission the same way)."""
    for golden in golden_files(pack):
        if golden.name == name:
            return golden
    raise GraderError(f"pack {pack.id!r} declares no golden file {name!r}")


def golden_path(pack: Pack, golden: GoldenFile) -> Path:
    return (pack.templates_dir if golden.public else pack.golden_dir) / golden.name


def render_golden(pack: Pack, sandbox: Sandbox | None = None) -> dict[Path, str]:
    """Run the reference and return ``{path: text}`` for every golden file of the pack."""
    own = sandbox is None
    sandbox = sandbox or Sandbox(environment=environment_mount(pack))
    try:
        with tempfile.TemporaryDirectory(prefix="golden-") as temp:
            workspace = pack.build_reference_workspace(Path(temp) / "reference")
            Path(temp).chmod(0o755)
            return {
                golden_path(pack, g): _render(pack, sandbox, workspace, g)
                for g in golden_files(pack)
            }
    finally:
        if own:
            sandbox.close()


def _render(pack: Pack, sandbox: Sandbox, workspace: Path, golden: GoldenFile) -> str:
    outputs = []
    limits = replace(pack.limits, wall_seconds=pack.limits.wall_seconds * REFERENCE_WALL_FACTOR)
    for run in golden.runs:
        extra = {name: pack.fixtures_dir / "inputs" / name for name in run.inputs}
        result = sandbox.run(workspace, run.argv, limits, stdin=run.stdin, extra=extra)
        problem = result.problem(limits)
        if problem:
            raise GraderError(
                f"the reference solution of {pack.id} {problem} while making "
                f"{golden.name} ({' '.join(run.argv)}): {result.stderr[-500:]}"
            )
        outputs.append(result.stdout)
    return golden.joiner.join(outputs)


def write_golden(pack: Pack) -> list[Path]:
    """Regenerate the pack's golden files; returns the paths that changed."""
    changed = []
    for path, text in render_golden(pack).items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            write_atomic(path, text)  # a stopped run leaves the old file, never half a new one
            changed.append(path)
    return changed


def stale_golden(pack: Pack) -> list[Path]:
    """Golden files that differ from what the reference prints now."""
    return [
        path
        for path, text in render_golden(pack).items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]
