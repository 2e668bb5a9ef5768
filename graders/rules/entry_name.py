"""Rule ``entry-name``: the class or function an entry point names has the handout's name.

The course's own tests reach a student's work through a mapping in an interface file (e.g.
``playable_games['h']`` in ``game_interface.py``), whatever the class is called and whichever
module defines it: the harness grades through that mapping too. Where the handout pins the
name, a different one is reported (with the pack's declared deduction, 0 by default), and a
mapping entry that is missing is reported as such. ``from m import Real as Alias`` is seen
through: the name that counts is the one the class or function was defined with.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict, Field

from graders.rules import register
from graders.rules._source import is_main_guard, require_tree
from graders.rules.base import Rule, RuleContext, Violation


class EntryNameOptions(BaseModel):
    """Options of ``entry-name``."""

    model_config = ConfigDict(extra="forbid")

    mapping: str = Field(description="The module-level dict, e.g. 'playable_games'.")
    key: str = Field(description="Its key for the entry, e.g. 'h'.")
    expected: list[str] = Field(
        min_length=1, description="The name(s) the handout gives, e.g. ['StonehengeGame']."
    )


@register
class EntryName(Rule):
    """Reports an entry point whose target is not called as the handout says."""

    name = "entry-name"
    checks_helpers = False
    Options = EntryNameOptions
    options: EntryNameOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        tree = require_tree(ctx)
        opts = self.options
        entry = f"{opts.mapping}[{opts.key!r}]"
        value = mapping_entry(tree, opts.mapping, opts.key)
        if value is None:
            yield self.violation(ctx, "missing", line=None, entry=entry)
            return
        found = defined_name(tree, value)
        if found is not None and found not in opts.expected:
            wanted = " or ".join(f"`{name}`" for name in opts.expected)
            yield self.violation(ctx, "renamed", value, entry=entry, found=found, wanted=wanted)


def mapping_entry(tree: ast.Module, mapping: str, key: str) -> ast.expr | None:
    """The value under ``key`` of the last ``mapping = {...}`` display (or ``mapping[key] =
    ...`` assignment) at module level or in the module's ``if __name__ == "__main__":`` block,
    where a starter's menu often keeps its dicts."""
    found = None
    for node in _top_level(tree):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name) and target.id == mapping \
                    and isinstance(value, ast.Dict):
                for item_key, item in zip(value.keys, value.values, strict=True):
                    if isinstance(item_key, ast.Constant) and item_key.value == key:
                        found = item
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                    and target.value.id == mapping and isinstance(target.slice, ast.Constant) \
                    and target.slice.value == key:
                found = value
    return found


def _top_level(tree: ast.Module) -> Iterator[ast.stmt]:
    """Module-level statements, those of a main block included, in source order."""
    for node in tree.body:
        if isinstance(node, ast.If) and is_main_guard(node):
            yield from node.body
        else:
            yield node


def defined_name(tree: ast.Module, value: ast.expr) -> str | None:
    """The name ``value`` was defined with: ``X`` for ``X`` or ``module.X``, the original
    name for ``from m import X as Y``; None for anything else (a call, a lambda)."""
    if isinstance(value, ast.Attribute):
        return value.attr
    if not isinstance(value, ast.Name):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == value.id:
                    return alias.name
    return value.id
