"""Rule ``pep8``: the file passes pycodestyle (the tool once called ``pep8``).

Runs pycodestyle's checker through its library API on the submitted text (never a subprocess,
never the file on disk) with the handout's settings. Each reported problem is one violation
with pycodestyle's code and text. pycodestyle reads the text with ``tokenize``, not by running
it; a file Python cannot parse is checked above its first syntax error (below it pycodestyle
would list the parser's confusion; the error itself is the syntax-error rule's one charge).

Choose ``ignore`` as the course did: CSC148 (2015) ran ``pep8.Checker(file,
ignore=('W2', 'W3'))``. Giving ``ignore`` replaces pycodestyle's default ignore list, so the
line-break rules W503 and W504, which contradict each other, both apply unless listed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

import pycodestyle
from pydantic import BaseModel, ConfigDict, Field

from graders.rules import register
from graders.rules.base import Rule, RuleContext, Violation
from graders.source_lines import python_lines


class Pep8Options(BaseModel):
    """Options of ``pep8``."""

    model_config = ConfigDict(extra="forbid")

    ignore: list[str] = Field(
        default_factory=lambda: ["W2", "W3"],
        description="Code prefixes not reported; replaces pycodestyle's default ignore list "
        "(an empty list keeps that default).",
    )
    select: list[str] = Field(
        default_factory=list, description="Report only these code prefixes (default: all)."
    )
    max_line_length: int = Field(79, ge=40, le=200, description="Longest line allowed (E501).")
    max_reports: int = Field(
        50, ge=1, description="Report at most this many problems per file; a last one counts "
        "the rest."
    )


class _Collect(pycodestyle.BaseReport):
    """A pycodestyle report that keeps (line, column, code, text) instead of printing."""

    def __init__(self, options: Any) -> None:
        super().__init__(options)
        self.found: list[tuple[int, int, str, str]] = []

    def error(self, line_number: int, offset: int, text: str, check: Any) -> str | None:
        code = super().error(line_number, offset, text, check)
        if code:
            self.found.append((line_number, offset, code, text[5:]))
        return code


@register
class Pep8(Rule):
    """Reports what pycodestyle reports, one violation per problem."""

    name = "pep8"
    Options = Pep8Options
    options: Pep8Options
    needs_tree = False  # a file that does not parse is checked above its syntax error

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        # the rule checks hand over the file's tree where it parses: no second parse then
        broken = None if ctx.tree is not None else _first_unread_line(ctx.source)
        source = ctx.source
        if broken is not None:
            # pycodestyle reads on past the break (an unclosed bracket makes every later line
            # a continuation: E128, E251, ...): the lines above it are the student's style,
            # the rest is the parser's confusion, and the break is the syntax error's charge
            # (a line only a newer Python reads is no style fault at all).
            source = "".join(python_lines(ctx.source, keepends=True)[:broken - 1])
        found = self.problems(source, ctx.file)
        limit = self.options.max_reports
        for line, column, code, text in found[:limit]:
            yield self.violation(
                ctx, "problem", line=line, column=column + 1, code=code, kind=code, text=text
            )
        if len(found) > limit:
            shown = {code for _, _, code, _ in found[:limit]}
            rest = sorted({code for _, _, code, _ in found[limit:]} - shown)
            yield self.violation(
                ctx, "more", line=found[limit][0], count=len(found) - limit, kind=",".join(rest)
            )

    def problems(self, source: str, file: str) -> list[tuple[int, int, str, str]]:
        """Every (line, 0-based column, code, text) pycodestyle reports on ``source``."""
        style = pycodestyle.StyleGuide(
            ignore=self.options.ignore,
            select=self.options.select or None,
            max_line_length=self.options.max_line_length,
            quiet=True,
        )
        report = _Collect(style.options)
        lines = python_lines(source, keepends=True)  # as pycodestyle reads a file
        checker = pycodestyle.Checker(file, lines=lines, options=style.options, report=report)
        checker.check_all()
        return sorted(report.found)


def _first_unread_line(source: str) -> int | None:
    """The line of ``source``'s first syntax error (where an unclosed bracket opens), or None
    when Python reads it all."""
    try:
        ast.parse(source)
    except SyntaxError as exc:
        return max(1, exc.lineno or 1)
    except (ValueError, RecursionError, MemoryError):  # NUL bytes; nested past the parser
        return 1
    return None
