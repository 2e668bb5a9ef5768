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
import re
import sys
import warnings
from collections.abc import Iterator

from graders.rules import register
from graders.rules.base import Rule, RuleContext, Violation

# The Python the instructor grades with: this one, or in a student's pre-check the
# instructor's (graders.kit.runtime.main sets it from the kit's manifest).
GRADING_PYTHON: tuple[int, int] = (sys.version_info.major, sys.version_info.minor)
FSTRING_START = re.compile(r"""(?<![\w'"])(?:[rR][fF]|[fF][rR]?)("|')""")
TEXT_LINES = ("#", ">>>", "...")  # a comment, or a doctest's example in a docstring
# Lines only Python 3.12 reads (PEP 695), by the message key that explains them.
NEWER_LINES = {
    "newer-type": re.compile(r"^\s*type\s+[A-Za-z_]\w*\s*(?:\[[^\]]*\])?\s*=(?!=)"),
    "newer-generic": re.compile(r"^\s*(?:(?:async\s+)?def|class)\s+[A-Za-z_]\w*\s*\["),
}


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
            running = (sys.version_info.major, sys.version_info.minor)
            for line, key in only_newer_python(ctx.lines, running, GRADING_PYTHON)[:1]:
                yield self.violation(ctx, key, line=line, column=1, python=_shown(GRADING_PYTHON),
                                     error=f"it runs on Python {_shown(running)} only")

    def _from_syntax_error(self, ctx: RuleContext, error: SyntaxError) -> Violation:
        if "\0" in ctx.source and "null" in (error.msg or "").lower():
            return self._null_byte(ctx, error.msg)
        line = error.lineno or 1
        column = error.offset or 1
        key = "indentation" if isinstance(error, IndentationError) else "syntax"
        if key == "syntax" and GRADING_PYTHON < (3, 12) and 0 < line <= len(ctx.lines):
            key = newer_python_key(ctx.lines[line - 1]) or key
        found = self.violation(ctx, key, line=line, error=error.msg, column=column,
                               python=_shown(GRADING_PYTHON))
        return dataclasses.replace(found, column=column - 1)

    def _null_byte(self, ctx: RuleContext, message: str) -> Violation:
        before = ctx.source.split("\0", 1)[0]
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1)
        found = self.violation(ctx, "null-byte", line=line, error=message, column=column + 1)
        return dataclasses.replace(found, column=column)


def only_newer_python(lines: list[str], running: tuple[int, int],
                      grading: tuple[int, int]) -> list[tuple[int, str]]:
    """(line number, message key) of each line that uses a Python 3.12 feature, when code
    that compiles on the ``running`` Python is graded on an older ``grading`` one. A comment
    line or a doctest line (``>>>``, ``...``) is text, not code, and is never counted."""
    if not grading < (3, 12) <= running:
        return []
    found = ((number, newer_python_key(line)) for number, line in enumerate(lines, start=1)
             if not line.lstrip().startswith(TEXT_LINES))
    return [(number, key) for number, key in found if key is not None]


def _shown(version: tuple[int, int]) -> str:
    return ".".join(map(str, version))


def newer_python_key(line: str) -> str | None:
    """The message key of the Python 3.12 feature ``line`` uses, if it uses one."""
    if any(_field_needs_312(line, start.end(), start.group(1))
           for start in FSTRING_START.finditer(line)):
        return "newer-fstring"
    return next((key for key, pattern in NEWER_LINES.items() if pattern.match(line)), None)


def _field_needs_312(line: str, at: int, quote: str) -> bool:
    """Whether the one-line f-string whose text starts at ``at`` is one Python 3.12 reads and
    3.11 does not: whole, with a string inside a ``{}`` field in its own quote or holding a
    backslash or a ``#``."""
    depth, newer = 0, False
    while at < len(line):
        char = line[at]
        if depth == 0 and char == quote:
            return newer
        if depth == 0:
            if line.startswith("{{", at) or char == "\\":
                at += 1  # an escaped brace, or an escape in the text: skip the next character
            elif char == "{":
                depth = 1
        elif char in "'\"":  # a string inside the field
            end = line.find(char, at + 1)
            if end < 0:
                return False
            newer = newer or char == quote or any(c in line[at:end] for c in "\\#")
            at = end
        else:
            depth += (char in "{[(") - (char in "}])")
        at += 1
    return False
