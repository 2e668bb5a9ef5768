"""Rule ``syntax-error``: a source Python cannot read is a failure with the parser's message.

The source is compiled (never run), so errors found after parsing (``return`` outside a
function, ``nonlocal`` at module level, ...) are caught too. The message shows the column
1-based, as editors do; ``Violation.column`` is 0-based, like ``ast`` offsets.

A student on a newer Python than the grader's may write what only that Python reads: an
f-string that reuses its quote inside ``{}`` (PEP 701), a ``type`` statement or type parameters
in brackets (PEP 695), all Python 3.12. Grading still follows the grader's Python, but the
message names the feature and how to write it for the grader's, so neither the student nor
the TA is left with a bare "invalid syntax" on a line that runs at home. In the pre-check, run
on the student's own Python, a file that compiles there is still read for those features when
the instructor grades on an older Python (``GRADING_PYTHON``, which the kit sets from its
manifest): the student learns before the deadline, not from the mark.
"""

from __future__ import annotations

import dataclasses
import sys
import warnings
from collections.abc import Iterator

from graders.rules import register
from graders.rules._newer_python import layout, newer_key, newer_lines
from graders.rules.base import Rule, RuleContext, Violation

RUNNING = (sys.version_info.major, sys.version_info.minor)
# The Python the instructor grades with: this one, or in a student's pre-check the
# instructor's (graders.kit.runtime.main sets it from the kit's manifest).
GRADING_PYTHON: tuple[int, int] = RUNNING


@register
class SyntaxErrorRule(Rule):
    """Reports the first error Python's compiler finds; needs no tree (it has none to get)."""

    name = "syntax-error"
    needs_tree = False

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        try:
            with warnings.catch_warnings():  # SyntaxWarnings are not errors, even under -W error
                warnings.simplefilter("ignore")
                compile(ctx.source, ctx.file, "exec", dont_inherit=True)
        except SyntaxError as error:
            yield self._from_syntax_error(ctx, error)
        except ValueError as error:  # NUL bytes, on Pythons that do not raise SyntaxError
            yield self._null_byte(ctx, str(error))
        else:
            for line, key in only_newer_python(ctx.source, RUNNING, GRADING_PYTHON)[:1]:
                yield self.violation(
                    ctx, key, line=line, column=1, python=_shown(GRADING_PYTHON),
                    error=f"your Python {_shown(RUNNING)} reads it, Python "
                    f"{_shown(GRADING_PYTHON)} does not")

    def _from_syntax_error(self, ctx: RuleContext, error: SyntaxError) -> Violation:
        if "\0" in ctx.source and "null" in (error.msg or "").lower():
            return self._null_byte(ctx, error.msg)
        line = error.lineno or 1
        column = error.offset or 1
        key = "indentation" if isinstance(error, IndentationError) else "syntax"
        if key == "syntax" and RUNNING < (3, 12) and 0 < line <= len(ctx.lines):
            column_in = None if (error.msg or "").startswith("f-string") else column - 1
            key = newer_key(ctx.lines[line - 1], line, layout(ctx.source), column_in) or key
        found = self.violation(ctx, key, line=line, error=error.msg, column=column,
                               python=_shown(GRADING_PYTHON))
        return dataclasses.replace(found, column=column - 1)

    def _null_byte(self, ctx: RuleContext, message: str) -> Violation:
        before = ctx.source.split("\0", 1)[0]
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1)
        found = self.violation(ctx, "null-byte", line=line, error=message, column=column + 1)
        return dataclasses.replace(found, column=column)


def grades_on_older_python() -> bool:
    """Whether this Python reads what the grader's does not (a student's pre-check on 3.12
    for an instructor on 3.11): then readable files are checked for 3.12 features too."""
    return _reads_newer(RUNNING, GRADING_PYTHON)


def only_newer_python(source: str, running: tuple[int, int],
                      grading: tuple[int, int]) -> list[tuple[int, str]]:
    """(line number, message key) of each line that uses a Python 3.12 feature, when code
    that compiles on the ``running`` Python is graded on an older ``grading`` one. A comment,
    a docstring or a doctest line is text, not code, and is never counted."""
    return newer_lines(source) if _reads_newer(running, grading) else []


def _reads_newer(running: tuple[int, int], grading: tuple[int, int]) -> bool:
    return grading < (3, 12) <= running


def _shown(version: tuple[int, int]) -> str:
    return ".".join(map(str, version))
