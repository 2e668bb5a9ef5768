"""What a student hands in beyond the files the handout names: helper modules, the program
itself where the handout names no file, and files that are not part of the assignment.

Nothing here runs student code: a program is recognised by reading its source with ``ast``.
Paths are the submission's relative POSIX paths (already made safe by the intake).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from graders.rules._source import is_main_guard

PROGRAM_NAMES = ("main.py",)  # compared case-insensitively: main.py, Main.py, MAIN.py
IGNORED_NAMES = {"submission_meta.json"}


@dataclass
class Extras:
    """The student's own files around the required ones."""

    helpers: dict[str, bytes] = field(default_factory=dict)  # relative name -> bytes
    ignored: list[str] = field(default_factory=list)


def submission_root(picked: Iterable[str]) -> PurePosixPath | None:
    """The folder the required files were found in (the shallowest), or None."""
    parents = sorted((PurePosixPath(path).parent for path in picked), key=lambda p: len(p.parts))
    return parents[0] if parents else None


def collect_extras(
    raw: Mapping[str, bytes],
    picked: Iterable[str],
    reserved: Iterable[str],
    root: PurePosixPath | None,
) -> Extras:
    """Helper modules (``.py`` files at or below ``root``, named relative to it) and the rest.

    ``picked`` are the paths already graded as required files; ``reserved`` are the base names
    of the required and locked files (a student's copy of a locked file is never a helper).
    """
    taken = set(picked)
    names = {name.lower() for name in reserved}
    extras = Extras()
    for path in sorted(raw):
        pure = PurePosixPath(path)
        if path in taken or pure.name in IGNORED_NAMES:
            continue
        relative = _below(pure, root)
        if relative is None or pure.suffix != ".py" or pure.name.lower() in names:
            extras.ignored.append(path)
        elif relative.parts and all(part.isidentifier() for part in relative.with_suffix("").parts):
            extras.helpers[relative.as_posix()] = raw[path]
        else:
            extras.ignored.append(path)  # not importable under that name (`my helper.py`)
    return extras


def _below(path: PurePosixPath, root: PurePosixPath | None) -> PurePosixPath | None:
    base = root or PurePosixPath(".")
    if base == PurePosixPath("."):
        return path
    try:
        return path.relative_to(base)
    except ValueError:
        return None


def find_program(raw: Mapping[str, bytes], exclude: Iterable[str]) -> tuple[str | None, list[str]]:
    """The student's program where the handout names no file, and the other candidates.

    Candidates are the ``.py`` files that read ``sys.argv``; one that does nothing when run
    (no ``__main__`` block, no call at the top) is a helper, and the file of theirs that
    imports it and runs (not a test file) is the program in its place. Order: a ``main.py``
    (any case), then a file reading it in its ``if __name__ == "__main__":`` block or running
    such a helper, then the shallowest, then the name. With no candidate, a ``main.py`` that
    reads nothing is still the program.
    """
    skip = {name.lower() for name in exclude}
    python = [
        p for p in sorted(raw) if p.endswith(".py") and PurePosixPath(p).name.lower() not in skip
    ]
    read = {p: _read(raw[p]) for p in python}
    readers = [p for p in python if read[p].argv]
    runners = {reader: _runner_of(reader, read) for reader in readers}
    named = [p for p in python if PurePosixPath(p).name.lower() in PROGRAM_NAMES]
    pool = sorted(set(runners.values())) or named
    if not pool:
        return None, []

    def rank(path: str) -> tuple[bool, bool, int, str]:
        pure = PurePosixPath(path)
        in_main = read[path].argv == "main-block" or path not in runners
        return (pure.name.lower() not in PROGRAM_NAMES, not in_main, len(pure.parts), path)

    chosen = min(pool, key=rank)
    return chosen, [p for p in pool if p != chosen]


@dataclass(frozen=True)
class _Source:
    argv: str  # "main-block": its main block reads sys.argv; "yes": elsewhere; "": never
    runs: bool  # a main block, or a call at the top: it does something when run
    imports: frozenset[str]  # the dotted names of the modules it imports
    guarded: bool = False  # it has an `if __name__ == "__main__":` block


def _read(data: bytes) -> _Source:
    try:
        tree = ast.parse(data.decode("utf-8", errors="replace"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _Source("yes" if b"sys.argv" in data else "", True, frozenset())
    blocks = [node for node in tree.body if is_main_guard(node)]
    argv = "main-block" if any(map(_mentions_argv, blocks)) else (
        "yes" if _mentions_argv(tree) else "")
    own = {d.name for d in tree.body if isinstance(d, ast.FunctionDef)}
    calls = any(_runs_something(node, own) for node in tree.body)
    imports: set[str] = set()
    for node in ast.walk(tree):  # each module named, and what `from X import Y` may name
        if isinstance(node, ast.Import):
            imports |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imports |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return _Source(argv, bool(blocks) or calls, frozenset(imports), bool(blocks))


def _runs_something(node: ast.stmt, own: set[str]) -> bool:
    """Whether a top-level statement does something when the file runs: a call, a call in
    an ``if`` or a loop, or a result of one of the file's own functions (``own``: their
    names; ``r = main()``)."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        return True
    if isinstance(node, ast.If | ast.For | ast.While | ast.With | ast.Try):
        return any(isinstance(inner, ast.Call) for inner in ast.walk(node))
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
        return isinstance(node.value.func, ast.Name) and node.value.func.id in own
    return False


def _runner_of(reader: str, read: Mapping[str, _Source]) -> str:
    """The file that runs ``reader``: itself when it does something when run, else the
    nearest file that imports it (up chains of imports) and runs, never a test file."""
    frontier, seen = [reader], {reader}
    while frontier:
        runners = [path for path in frontier if read[path].runs]
        if runners:
            return min(runners, key=lambda path: _rank(path, read))
        above = []
        for current in frontier:
            names = _module_names(current)
            above += [path for path in read if path not in seen and not _is_test(path)
                      and names & read[path].imports]
            seen.update(above)
        frontier = above
    return reader


def _rank(path: str, read: Mapping[str, _Source]) -> tuple[bool, bool, bool, int, str]:
    """Of files that run, the program first: imported by none of the others, with a main
    block, named main.py, the shallowest."""
    imported = any(_module_names(path) & other.imports for other in read.values())
    pure = PurePosixPath(path)
    return (imported, not read[path].guarded, pure.name.lower() not in PROGRAM_NAMES,
            len(pure.parts), path)


def _module_names(path: str) -> set[str]:
    """The names ``path`` may be imported by: ``pkg/helper.py`` is ``helper`` or
    ``pkg.helper``."""
    parts = PurePosixPath(path).with_suffix("").parts
    return {".".join(parts[i:]) for i in range(len(parts))}


def _is_test(path: str) -> bool:
    name = PurePosixPath(path).stem.lower()
    return name.startswith("test") or name.endswith(("_test", "_tests", "tests"))


def reads_argv(data: bytes) -> bool:
    """Whether the source reads ``sys.argv`` (or ``argv`` imported from ``sys``)."""
    return bool(_read(data).argv)


def _mentions_argv(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "argv"
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        ):
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "sys" and any(
            alias.name == "argv" for alias in node.names
        ):
            return True
    return False
