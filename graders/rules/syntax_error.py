"""Rule ``syntax-error``: a source Python cannot read is a failure with the parser's message.

The source is compiled (never run), so errors found after parsing (``return`` outside a
function, ``nonlocal`` at module level, ...) are caught too. The message shows the column
1-based, as editors do; ``Violation.column`` is 0-based, like ``ast`` offsets.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator

from graders.rules import register
from graders.rules.base import Rule, RuleContext, Violation


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
        key = "indentation" if isinstance(error, IndentationError) else "syntax"
        line = error.lineno or 1
        column = error.offset or 1
        found = self.violation(ctx, key, line=line, error=error.msg, column=column)
        return dataclasses.replace(found, column=column - 1)

    def _null_byte(self, ctx: RuleContext, message: str) -> Violation:
        before = ctx.source.split("\0", 1)[0]
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1)
        found = self.violation(ctx, "null-byte", line=line, error=message, column=column + 1)
        return dataclasses.replace(found, column=column)
