"""Rule ``template-functions``: the file defines exactly the template's functions.

Functions are matched by qualified name (``f``, ``Cls.method`` when the template has classes,
``f.inner`` for nested ones). Reported: functions added (nested ones too, unless
``allow_nested``), removed, renamed (a removed function and an added one with the same parent
and parameter list), re-signed (parameter names, order, kinds or defaults changed, or ``async``
added/removed) and defined twice. Annotations and decorators are not compared.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict, Field

from graders.rules import register
from graders.rules._functions import FunctionInfo, collect_functions, has_classes
from graders.rules._source import parse_template, require_tree
from graders.rules.base import Rule, RuleContext, Violation


class FunctionsOptions(BaseModel):
    """Options of ``template-functions``."""

    model_config = ConfigDict(extra="forbid")

    ignore: list[str] = Field(
        default_factory=list,
        description="Function names (plain like 'main' or qualified like 'Game.play') left "
        "out of the comparison.",
    )
    allow_nested: bool = Field(
        default=False,
        description="Allow functions defined inside the template's functions (helpers).",
    )


@register
class TemplateFunctions(Rule):
    """Compares the file's function definitions with its template's."""

    name = "template-functions"
    compares_template = True
    checks_helpers = False
    Options = FunctionsOptions
    options: FunctionsOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        template = parse_template(ctx, self.name)
        methods = has_classes(template)
        expected = self._keep(collect_functions(template, methods=methods))
        found = self._keep(collect_functions(require_tree(ctx), methods=methods))
        expected_names = {f.qualname for f in expected}
        if self.options.allow_nested:
            found = [f for f in found if not f.in_function or f.qualname in expected_names]
        firsts: dict[str, FunctionInfo] = {}
        violations: list[Violation] = []
        for function in found:
            if function.qualname in firsts:
                first = firsts[function.qualname].node.lineno
                violations.append(
                    self.violation(
                        ctx, "duplicate", function.node, name=function.qualname, first=first
                    )
                )
            else:
                firsts[function.qualname] = function
        violations += self._compare(ctx, {f.qualname: f for f in expected}, firsts)
        yield from sorted(violations, key=lambda v: (v.line is None, v.line or 0))

    def _keep(self, functions: list[FunctionInfo]) -> list[FunctionInfo]:
        ignored = set(self.options.ignore)
        return [f for f in functions if f.name not in ignored and f.qualname not in ignored]

    def _compare(
        self, ctx: RuleContext, expected: dict[str, FunctionInfo], found: dict[str, FunctionInfo]
    ) -> Iterator[Violation]:
        removed = [f for name, f in expected.items() if name not in found]
        added = [f for name, f in found.items() if name not in expected]
        for old in list(removed):
            new = _rename_of(old, added)
            if new is not None:
                removed.remove(old)
                added.remove(new)
                yield self.violation(
                    ctx, "renamed", new.node, old=old.qualname, old_name=old.name, new=new.name
                )
        for name, function in found.items():
            template = expected.get(name)
            if template is not None and template.signature != function.signature:
                yield self.violation(
                    ctx,
                    "re-signed",
                    function.node,
                    name=name,
                    expected=template.signature,
                    found=function.signature,
                )
        for function in added:
            yield self._added(ctx, function)
        for function in removed:
            yield self.violation(
                ctx, "removed", name=function.qualname, signature=function.signature
            )

    def _added(self, ctx: RuleContext, function: FunctionInfo) -> Violation:
        if function.in_function:
            return self.violation(
                ctx,
                "added-nested",
                function.node,
                name=function.name,
                signature=function.signature,
                parent=function.parent,
            )
        return self.violation(
            ctx, "added", function.node, name=function.qualname, signature=function.signature
        )


def _rename_of(old: FunctionInfo, added: list[FunctionInfo]) -> FunctionInfo | None:
    """The added function that looks like ``old`` under another name (closest name wins)."""
    candidates = [
        new
        for new in added
        if new.parent == old.parent
        and new.in_function == old.in_function
        and new.params == old.params
        and new.is_async == old.is_async
    ]
    if not candidates:
        return None
    return max(candidates, key=lambda new: _similarity(old.name, new.name))


def _similarity(first: str, second: str) -> float:
    return difflib.SequenceMatcher(None, first.lower(), second.lower()).ratio()
