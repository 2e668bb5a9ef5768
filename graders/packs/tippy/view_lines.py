"""The CODE lines a game_view.py changes against the starter (parent side, plain text only).

The handout: "Add or modify a few (less than a dozen) lines of game_view.py ... Do not change
any other part of the starter code." A line counts when its code changes; left out are blank
lines, comments, docstrings and the wording of ``input()`` prompts (every string literal
passed to ``input`` reads as ``''``). Each differing run counts ``max(removed, added)``, as
the engine's ``changed-lines`` rule does.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass

from graders.rules.changed_lines import hunks, region_lines


@dataclass(frozen=True)
class CodeLines:
    """The code of a file, one entry per line that holds some: (line number, text)."""

    lines: list[tuple[int, str]]
    menus: frozenset[int]


def _docstring_lines(tree: ast.Module) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                found.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    return found


def _prompt_spans(tree: ast.Module) -> list[tuple[int, int, int, int]]:
    """(line, column, end line, end column) of each string literal given to input()."""
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "input":
            for arg in node.args:
                if isinstance(arg, ast.Constant | ast.JoinedStr) and arg.end_lineno is not None:
                    spans.append((arg.lineno, arg.col_offset, arg.end_lineno,
                                  arg.end_col_offset or 0))
    return spans


def _blank_prompts(lines: list[bytes], spans: list[tuple[int, int, int, int]]) -> None:
    for line, col, end_line, end_col in sorted(spans, reverse=True):
        first, last = lines[line - 1], lines[end_line - 1]
        lines[line - 1] = first[:col] + b"''" + last[end_col:]
        for number in range(line, end_line):
            lines[number] = b"\n"


def _without_comments(text: str) -> list[str]:
    """Each line of text with its comment cut off and spaces stripped."""
    rows = text.splitlines()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                row, col = token.start
                rows[row - 1] = rows[row - 1][:col]
    except (tokenize.TokenError, SyntaxError):
        pass
    return [row.strip() for row in rows]


def code_lines(source: str) -> CodeLines:
    """The code lines of source, with what does not count left out (SyntaxError if unparsable)."""
    tree = ast.parse(source)
    raw = [line + b"\n" for line in source.encode().split(b"\n")]
    _blank_prompts(raw, _prompt_spans(tree))
    text = b"".join(raw).decode(errors="replace")
    skip = _docstring_lines(tree)
    rows = _without_comments(text)
    kept = [(i + 1, row) for i, row in enumerate(rows) if row and i + 1 not in skip]
    return CodeLines(kept, region_lines(tree, ["imports", "main"]))


@dataclass(frozen=True)
class Changes:
    """How a file's code differs from the starter's."""

    count: int
    outside: list[int]


def changes(starter: str, source: str) -> Changes:
    """Changed code lines of source against starter, and the changed ones outside the menus.

    "Outside the menus" is outside the module's imports and its ``__main__`` block, on either
    side (a starter line removed there is reported at the nearest line of source).
    """
    old, new = code_lines(starter), code_lines(source)
    count, outside = 0, []
    for hunk in hunks([t for _, t in old.lines], [t for _, t in new.lines]):
        removed = old.lines[hunk.t_start:hunk.t_end]
        added = new.lines[hunk.s_start:hunk.s_end]
        count += max(len(removed), len(added))
        outside += [n for n, _ in added if n not in new.menus]
        if any(n not in old.menus for n, _ in removed):
            near = new.lines[min(hunk.s_start, len(new.lines) - 1)][0] if new.lines else 1
            outside.append(near)
    return Changes(count, sorted(set(outside)))


def outside_text(source: str) -> str:
    """The counted code of source outside its menus, one line each (for a side-by-side diff)."""
    found = code_lines(source)
    return "\n".join(text for number, text in found.lines if number not in found.menus)
