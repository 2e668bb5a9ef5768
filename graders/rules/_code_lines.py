"""A file's CODE lines: what the ``changed-lines`` rule counts with ``code_only``.

For handouts that limit an edit ("add or modify fewer than a dozen lines of game_view.py") where
only code should count: blank lines, comments, docstrings and the wording of prompts (the text
passed to ``input()``) are left out. Class consensus (:mod:`graders.consensus`) reads the same
form, so a line most of the class shares is recognised whichever way it was written.
"""

from __future__ import annotations

import ast
import io
import tokenize

from graders.source_lines import python_lines, python_newlines


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


def code_lines(source: str) -> list[tuple[int, str]]:
    """(line number, stripped code) of each line of source that holds code, what does not
    count left out: docstrings, comments, blank lines, and prompts read as ``''``
    (SyntaxError if unparsable)."""
    source = python_newlines(source)  # ast's line numbers, and the split below, agree
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
    rows = python_lines(text)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                rows[token.start[0] - 1] = rows[token.start[0] - 1][:token.start[1]]
    except (tokenize.TokenError, SyntaxError):
        pass
    return [(i + 1, row.strip()) for i, row in enumerate(rows) if row.strip() and i + 1 not in skip]
