"""Rule ``syntax-error``: a source Python cannot read is a failure with the parser's message.

The source is compiled (never run), so errors found after parsing (``return`` outside a
function, ``nonlocal`` at module level, ...) are caught too. The message shows the column
1-based, as editors do; ``Violation.column`` is 0-based, like ``ast`` offsets.

A student on a newer Python than the grader's may write what only that Python reads: an
f-string that reuses its quote inside ``{}`` (PEP 701), a ``type`` statement or type parameters
in brackets (PEP 695), all Python 3.12. Grading still follows the grader's Python, but the
message names the feature and how to write it for the grader's, so neither the student nor
the TA is left with a bare "invalid syntax" on a line that runs at home.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import warnings
from collections.abc import Iterator

from graders.rules import register
from graders.rules.base import Rule, RuleContext, Violation

PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"
FSTRING_START = re.compile(r"""(?<![\w'"])(?:[rR][fF]|[fF][rR]?)("|')""")
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

    def _from_syntax_error(self, ctx: RuleContext, error: SyntaxError) -> Violation:
        if "\0" in ctx.source and "null" in (error.msg or "").lower():
            return self._null_byte(ctx, error.msg)
        line = error.lineno or 1
        column = error.offset or 1
        key = "indentation" if isinstance(error, IndentationError) else "syntax"
        if key == "syntax" and sys.version_info < (3, 12) and 0 < line <= len(ctx.lines):
            key = newer_python_key(ctx.lines[line - 1]) or key
        found = self.violation(ctx, key, line=line, error=error.msg, column=column,
                               python=PYTHON)
        return dataclasses.replace(found, column=column - 1)

    def _null_byte(self, ctx: RuleContext, message: str) -> Violation:
        before = ctx.source.split("\0", 1)[0]
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1)
        found = self.violation(ctx, "null-byte", line=line, error=message, column=column + 1)
        return dataclasses.replace(found, column=column)


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
