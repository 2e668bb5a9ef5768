"""Rule ``main-block``: the file ends with an ``if __name__ == "__main__":`` block that calls a
required function with required constant keyword arguments.

E.g. CSC148's ``python_ta.check_all(config="a2_pyta.txt")`` at the bottom of every file. The
call may be written ``check_all(...)`` or ``<anything>.check_all(...)`` and may sit anywhere
in the block, after other statements. Only the last top-level statement counts: a block
followed by more code is reported as not last.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict, Field

from graders.rules import register
from graders.rules._source import is_main_guard, require_tree
from graders.rules.base import Rule, RuleContext, Violation


class MainBlockOptions(BaseModel):
    """Options of ``main-block``."""

    model_config = ConfigDict(extra="forbid")

    call: str = Field(
        default="check_all",
        description="Name of the function the block must call (bare or as an attribute).",
    )
    keywords: dict[str, str] = Field(
        default_factory=dict,
        description="Constant keyword arguments that call must have, e.g. "
        "{ config = 'a2_pyta.txt' }.",
    )
    example: str = Field(
        default="",
        description="The block as students should write it, quoted in the messages.",
    )


@register
class MainBlock(Rule):
    """Checks the last statement of the file."""

    name = "main-block"
    checks_helpers = False
    Options = MainBlockOptions
    options: MainBlockOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        body = require_tree(ctx).body
        guards = [node for node in body if is_main_guard(node)]
        example = self.options.example or f'if __name__ == "__main__": {self.options.call}(...)'
        if not guards:
            yield self.violation(ctx, "missing", line=len(ctx.lines) or 1,
                                 example=example)
            return
        last = guards[-1]
        if body[-1] is not last:
            yield self.violation(ctx, "not-last", last, after=body[-1].lineno)
        calls = [node for node in ast.walk(last) if isinstance(node, ast.Call)
                 and _called_name(node) == self.options.call]
        if not calls:
            yield self.violation(ctx, "no-call", last, call=self.options.call, example=example)
            return
        wrong = _wrong_keywords(calls[-1], self.options.keywords)
        if wrong:
            yield self.violation(ctx, "wrong-arguments", calls[-1], call=self.options.call,
                                 expected=wrong)


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _wrong_keywords(call: ast.Call, wanted: dict[str, str]) -> str:
    given = {k.arg: k.value for k in call.keywords if k.arg}
    missing = []
    for key, value in wanted.items():
        node = given.get(key)
        if not (isinstance(node, ast.Constant) and node.value == value):
            missing.append(f"{key}={value!r}")
    return ", ".join(missing)
