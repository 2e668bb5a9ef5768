"""Helpers shared by the rule modules (not a rule: ``_`` modules hold no rule).

Comments are read with :mod:`tokenize`, so a ``#`` inside a string is never taken for one.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass

from graders.errors import GraderError
from graders.rules.base import RuleContext
from graders.source_lines import python_newlines

_NOT_CODE = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
    tokenize.ENCODING,
}


@dataclass(frozen=True)
class Comment:
    """A comment that is alone on its line (``column`` is where the ``#`` is)."""

    line: int
    column: int
    text: str


@dataclass(frozen=True)
class SourceLines:
    """Which lines of a source hold code and which hold only a comment."""

    comments: dict[int, Comment]
    code: frozenset[int]


def scan(source: str) -> SourceLines:
    """Classify the lines of ``source``; a source that stops tokenizing keeps what was read."""
    comments: dict[int, Comment] = {}
    code: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(python_newlines(source)).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = Comment(token.start[0], token.start[1], token.string)
            elif token.type not in _NOT_CODE:
                code.update(range(token.start[0], token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        pass
    alone = {line: c for line, c in comments.items() if line not in code}
    return SourceLines(alone, frozenset(code))


def comment_runs(lines: SourceLines) -> list[list[Comment]]:
    """Runs of comment-only lines that follow each other with no blank or code line between."""
    runs: list[list[Comment]] = []
    for number in sorted(lines.comments):
        comment = lines.comments[number]
        if runs and runs[-1][-1].line == number - 1:
            runs[-1].append(comment)
        else:
            runs.append([comment])
    return runs


def leading_run(lines: SourceLines) -> list[Comment]:
    """The comment run the file starts with (leading blank lines allowed), or ``[]``."""
    runs = comment_runs(lines)
    if not runs:
        return []
    first = runs[0]
    if any(line < first[0].line for line in lines.code):
        return []
    return first


def normalise(text: str) -> str:
    """``text`` with surrounding whitespace stripped and inner runs collapsed to one space."""
    return " ".join(text.split())


def is_main_guard(node: ast.stmt) -> bool:
    """True for ``if __name__ == "__main__":`` (either side of the ``==``)."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    values = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and values == ["__main__"]


def require_tree(ctx: RuleContext) -> ast.Module:
    """The parsed tree of ``ctx``; the engine calls tree rules only on sources that parse."""
    if ctx.tree is None:
        raise GraderError(f"{ctx.file}: a rule that needs a syntax tree was called without one")
    return ctx.tree


def parse_template(ctx: RuleContext, rule: str) -> ast.Module:
    """The template of ``ctx`` parsed; a missing or broken template is the pack's fault."""
    if ctx.template is None:
        raise GraderError(f"rule {rule!r} needs the template of {ctx.file}, and none was given")
    try:
        return ast.parse(ctx.template, filename=f"template of {ctx.file}")
    except (SyntaxError, ValueError) as error:
        raise GraderError(f"the template of {ctx.file} does not parse: {error}") from None


def shorten(text: str, limit: int = 60) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = normalise(text)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
