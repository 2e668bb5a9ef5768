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

    Candidates are the ``.py`` files that read ``sys.argv``. Order: a ``main.py`` (any case),
    then a file reading it in its ``if __name__ == "__main__":`` block, then the shallowest,
    then the name. With no candidate, a ``main.py`` that reads nothing is still the program.
    """
    skip = {name.lower() for name in exclude}
    python = [
        p for p in sorted(raw) if p.endswith(".py") and PurePosixPath(p).name.lower() not in skip
    ]
    scored = {p: _argv_use(raw[p]) for p in python}
    readers = [p for p in python if scored[p]]
    named = [p for p in python if PurePosixPath(p).name.lower() in PROGRAM_NAMES]
    pool = readers or named
    if not pool:
        return None, []

    def rank(path: str) -> tuple[bool, bool, int, str]:
        pure = PurePosixPath(path)
        in_main = scored[path] == "main-block"
        return (pure.name.lower() not in PROGRAM_NAMES, not in_main, len(pure.parts), path)

    chosen = min(pool, key=rank)
    return chosen, [p for p in readers if p != chosen]


def reads_argv(data: bytes) -> bool:
    """Whether the source reads ``sys.argv`` (or ``argv`` imported from ``sys``)."""
    return bool(_argv_use(data))


def _argv_use(data: bytes) -> str:
    """``"main-block"`` when the main block reads sys.argv, ``"yes"`` elsewhere, else ``""``."""
    try:
        tree = ast.parse(data.decode("utf-8", errors="replace"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return "yes" if b"sys.argv" in data else ""
    blocks = [node for node in tree.body if is_main_guard(node)]
    if any(_mentions_argv(node) for node in blocks):
        return "main-block"
    return "yes" if _mentions_argv(tree) else ""


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
