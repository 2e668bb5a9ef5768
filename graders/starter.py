"""Starter code is not student code: which lines of a submitted file the course gave them.

A line is starter text when its stripped text is a line of the bundled template of that file
(``[submission] templates``) or of the course's original starter as the pack declares it
(``[submission] starter_text``), or of an earlier version the pack lists
(``[submission] starter_versions``), or one most of the class shares (class consensus,
:mod:`graders.consensus`), or when it lies inside a block the pack declares starter-owned
(``[submission] starter_owned``: a top-level def or class by name, or ``__main__`` for the
``if __name__ == "__main__":`` block). Rules and style never charge the student for such a line.

Lines shorter than :data:`MIN_CHARS` (``pass``, ``else:``, a lone docstring quote) match too
much to say whose they are, so they are never taken for starter text on their own.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from graders.pack import Pack
from graders.rules._source import is_main_guard

MIN_CHARS = 8
MAIN = "__main__"


def starter_lines(pack: Pack, file: str) -> frozenset[str]:
    """The stripped lines of the starter versions of ``file`` (empty for a helper module),
    with the lines the class shares (:meth:`Pack.shared_lines`)."""
    texts = list(pack.declaration.submission.starter_text.get(file, []))
    for version in starter_versions(pack, file):
        texts += version.splitlines()
    return _meaningful(texts) | _meaningful(pack.shared_lines(file))


def starter_versions(pack: Pack, file: str) -> list[str]:
    """The texts of every bundled starter version of ``file``: its template first, then the
    earlier versions ``[submission] starter_versions`` lists."""
    spec = pack.declaration.submission
    names = ([spec.templates[file]] if file in spec.templates else [])
    return [pack.template_text(name) for name in names + spec.starter_versions.get(file, [])]


def closest_starter(pack: Pack, file: str, source: str) -> str | None:
    """The starter version of ``file`` closest to the student's ``source`` (fewest differing
    lines; the template on a tie), or None when ``file`` has no template."""
    if file not in pack.declaration.submission.templates:
        return None
    versions = starter_versions(pack, file)
    return min(versions, key=lambda version: differing_lines(version, source))


def is_starter_copy(pack: Pack, file: str, source: str) -> bool:
    """Whether ``source`` is a starter version of ``file`` unchanged (its template, an earlier
    version, or the kit's file of that name), blank lines and indentation aside."""
    spec = pack.declaration.submission
    names = [spec.templates.get(file), *spec.starter_versions.get(file, []), file]
    paths = tuple(pack.templates_dir / name for name in names if name)
    return tuple(_solid(source)) in _solid_texts(paths)


@lru_cache(maxsize=64)
def _solid_texts(paths: tuple[Path, ...]) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(_solid(path.read_text(encoding="utf-8")))
                     for path in paths if path.is_file())


def differing_lines(starter: str, source: str) -> int:
    """How many non-blank lines differ (each differing run counts its longer side)."""
    old, new = _solid(starter), _solid(source)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
               if tag != "equal")


def _solid(text: str) -> list[str]:
    return [s for s in (line.strip() for line in text.splitlines()) if s]


def owned_lines(pack: Pack, file: str, source: str) -> frozenset[int]:
    """Line numbers of ``source`` inside the blocks the pack declares starter-owned."""
    names = tuple(sorted(pack.declaration.submission.starter_owned.get(file, [])))
    return _owned(names, source) if names else frozenset()


def is_starter_line(pack: Pack, file: str, source: str, line: int | None) -> bool:
    """Whether line ``line`` (1-based) of ``source`` is starter text of ``file``."""
    if line is None:
        return False
    if line in owned_lines(pack, file, source):
        return True
    lines = source.splitlines()
    if not 0 < line <= len(lines):
        return False
    text = lines[line - 1].strip()
    return len(text) >= MIN_CHARS and text in starter_lines(pack, file)


def _meaningful(lines: Iterable[str]) -> frozenset[str]:
    return frozenset(s for s in (line.strip() for line in lines) if len(s) >= MIN_CHARS)


@lru_cache(maxsize=256)
def _owned(names: tuple[str, ...], source: str) -> frozenset[int]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    found: set[int] = set()
    for node in tree.body:
        name = getattr(node, "name", None)
        if name in names or (MAIN in names and is_main_guard(node)):
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            found.update(range(first, (node.end_lineno or node.lineno) + 1))
    return frozenset(found)
