"""A file's CODE lines, and how its code differs from the starter's copy.

For handouts that limit an edit ("add or modify fewer than a dozen lines of game_view.py") where
only code should count: blank lines, comments, docstrings and the wording of prompts (the text
passed to ``input()``) are left out. Each differing run counts ``max(removed, added)``, as the
``changed-lines`` rule counts raw lines; a changed line outside the allowed regions (module-level
imports, the ``__main__`` block: see :func:`graders.rules.changed_lines.region_lines`) is
reported at its line, a removed starter line at the nearest line of the file. A line most of
the class shares (class consensus) counts as a starter line.
:func:`expect_few_changes` is the grader tests' assertion.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from graders.rules.changed_lines import hunks, region_lines, unshared
from graders.testing import expect_text

REGIONS = ("imports", "main")
SHOWN = {"imports": "its imports", "main": "its __main__ block"}


@dataclass(frozen=True)
class CodeLines:
    """The code of a file, one entry per line that holds some: (line number, text); ``allowed``
    holds the line numbers inside the allowed regions."""

    lines: list[tuple[int, str]]
    allowed: frozenset[int]


@dataclass(frozen=True)
class Changes:
    """How a file's code differs from the starter's: changed lines, and those outside the
    allowed regions."""

    count: int
    outside: list[int]


def _docstring(node: ast.AST) -> ast.stmt | None:
    body = getattr(node, "body", None)
    if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) \
            and body and isinstance(body[0], ast.Expr) \
            and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        return body[0]
    return None


def _prompts(tree: ast.AST) -> list[ast.expr]:
    """The literal texts passed to ``input()``, last first."""
    found = [arg for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id == "input"
             for arg in node.args if isinstance(arg, ast.Constant | ast.JoinedStr)]
    return sorted(found, key=lambda a: (a.lineno, a.col_offset), reverse=True)


def code_lines(source: str, regions: Sequence[str] = REGIONS) -> CodeLines:
    """The code lines of source, what does not count left out (SyntaxError if unparsable)."""
    tree = ast.parse(source)
    raw = [line + b"\n" for line in source.encode().split(b"\n")]
    skip: set[int] = set()
    for node in ast.walk(tree):
        doc = _docstring(node)
        if doc is not None:
            skip.update(range(doc.lineno, (doc.end_lineno or doc.lineno) + 1))
    for arg in _prompts(tree):  # every prompt reads '' (byte offsets: col_offset is in bytes)
        end = arg.end_lineno or arg.lineno
        raw[arg.lineno - 1] = raw[arg.lineno - 1][:arg.col_offset] + b"''" + \
            raw[end - 1][arg.end_col_offset or 0:]
        raw[arg.lineno:end] = [b"\n"] * (end - arg.lineno)
    text = b"".join(raw).decode(errors="replace")
    rows = text.splitlines()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                rows[token.start[0] - 1] = rows[token.start[0] - 1][:token.start[1]]
    except (tokenize.TokenError, SyntaxError):
        pass
    kept = [(i + 1, row.strip()) for i, row in enumerate(rows) if row.strip() and i + 1 not in skip]
    return CodeLines(kept, region_lines(tree, regions))


def changes(
    starter: str, source: str, regions: Sequence[str] = REGIONS,
    shared: Collection[str] = frozenset(),
) -> Changes:
    """Changed code lines of source against starter (SyntaxError if either is unparsable);
    a line in ``shared`` (class consensus) is a starter line."""
    old, new = code_lines(starter, regions), code_lines(source, regions)
    count, outside = 0, []
    for hunk in hunks([t for _, t in old.lines], [t for _, t in new.lines]):
        removed, added = unshared(old.lines[hunk.t_start:hunk.t_end],
                                  new.lines[hunk.s_start:hunk.s_end], lambda n: n[1] in shared)
        count += max(len(removed), len(added))
        outside += [n for n, _ in added if n not in new.allowed]
        if any(n not in old.allowed for n, _ in removed):
            outside.append(new.lines[min(hunk.s_start, len(new.lines) - 1)][0] if new.lines else 1)
    return Changes(count, sorted(set(outside)))


def outside_text(source: str, regions: Sequence[str] = REGIONS) -> str:
    """The counted code of source outside the allowed regions, one line each (for a
    side-by-side diff)."""
    found = code_lines(source, regions)
    return "\n".join(text for number, text in found.lines if number not in found.allowed)


def expect_few_changes(
    starter: str, source: str, *, most: int, file: str, handout: str = "",
    regions: Sequence[str] = REGIONS, shared: Collection[str] = frozenset(),
) -> None:
    """Fail unless ``source`` changes at most ``most`` code lines of ``starter``, all inside
    ``regions`` (code changed outside them is shown side by side). ``handout``: a sentence
    quoted in the messages. ``shared``: lines the class shares, taken for starter lines
    (:meth:`graders.pack.Pack.shared_lines`)."""
    try:
        found = changes(starter, source, regions, shared)
    except SyntaxError as error:
        raise AssertionError(f"{file} is not valid Python: {error}") from None
    quoted = f"; the handout: {handout!r}" if handout else ""
    if found.outside:
        where = f"{file} outside {' and '.join(SHOWN[r] for r in regions)}"
        expect_text(outside_text(source, regions), outside_text(starter, regions), mode="rstrip",
                    what=f"{where} (code changed on line(s) {found.outside}{quoted})")
        raise AssertionError(f"{where} changes code, on line(s) {found.outside}")
    assert found.count <= most, (
        f"{file} changes {found.count} lines of code (blank lines, comments, docstrings and "
        f"prompt wording not counted); at most {most} may change{quoted}")
