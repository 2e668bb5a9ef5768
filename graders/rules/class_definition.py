"""Rule ``class-definition``: no new classes, at module level or nested anywhere."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict, Field

from graders.rules import register
from graders.rules._source import require_tree
from graders.rules.base import Rule, RuleContext, Violation


class ClassOptions(BaseModel):
    """Options of ``class-definition``."""

    model_config = ConfigDict(extra="forbid")

    allowed: list[str] = Field(
        default_factory=list,
        description="Names of classes the file may define (e.g. a class the template has).",
    )


@register
class ClassDefinition(Rule):
    """Reports every ``class`` statement whose name is not allowed."""

    name = "class-definition"
    Options = ClassOptions
    options: ClassOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        classes = [n for n in ast.walk(require_tree(ctx)) if isinstance(n, ast.ClassDef)]
        for node in sorted(classes, key=lambda n: (n.lineno, n.col_offset)):
            if node.name not in self.options.allowed:
                key = "class" if node.col_offset == 0 else "nested-class"
                yield self.violation(ctx, key, node, name=node.name)
