"""Rule ``entry-name``: the class or function an entry point names has the handout's name.

The course's own tests reach a student's work through a mapping in an interface file (e.g.
``playable_games['h']`` in ``game_interface.py``), whatever the class is called and whichever
module defines it: the harness grades through that mapping too. Where the handout pins the
name, a different one is reported (with the pack's declared deduction, 0 by default), and a
mapping entry that is missing is reported as such. The menu is read as the drivers read it
(``harness_kit.menu_entry``): the last binding of ``mapping[key]`` anywhere in the module.
``from m import Real as Alias`` is seen through: the name that counts is the one the class or
function was defined with. The menu and the pinned names are the driver's own: options
``{ entry = "NAME" }`` read them from the pack's ``[entries.NAME]`` when the declaration loads
(:meth:`EntryName.with_entries`), so they are declared once.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graders.rules import register
from graders.rules._source import require_tree
from graders.rules.base import Rule, RuleContext, Violation
from graders.sandbox.harness_kit import menu_entry


class EntryNameOptions(BaseModel):
    """Options of ``entry-name``: an ``entry`` of the pack's ``[entries]``, or the menu itself."""

    model_config = ConfigDict(extra="forbid")

    entry: str | None = Field(
        None, description="The pack's `[entries.NAME]` that says it: its first menu way gives "
        "`mapping` and `key`, its pinned and home names `expected` (unless given here)."
    )
    mapping: str | None = Field(None, description="The module-level dict, e.g. 'playable_games'.")
    key: str | None = Field(None, description="Its key for the entry, e.g. 'h'.")
    expected: list[str] = Field(
        default_factory=list, description="The name(s) the handout gives, e.g. ['BoardGame']."
    )

    @model_validator(mode="after")
    def _says_which_menu(self) -> EntryNameOptions:
        if self.entry is not None and (self.mapping or self.key):
            raise ValueError("`entry` gives the mapping and key: leave them out")
        if self.entry is None and not (self.mapping and self.key and self.expected):
            raise ValueError("name an `entry`, or give `mapping`, `key` and `expected`")
        return self


@register
class EntryName(Rule):
    """Reports an entry point whose target is not called as the handout says."""

    name = "entry-name"
    checks_helpers = False
    Options = EntryNameOptions
    options: EntryNameOptions

    @classmethod
    def with_entries(cls, options: Mapping[str, Any], entries: Mapping[str, Any]) -> dict[str, Any]:
        """The menu and names of ``options["entry"]``, read from its ``[entries]`` table."""
        name = options.get("entry")
        if name is None:
            return dict(options)
        if name not in entries:
            raise ValueError(f"rule entry-name reads entries.{name}, which is not declared")
        menu, expected = entries[name].menu(), options.get("expected") or entries[name].names()
        if menu is None or not expected:
            raise ValueError(f"rule entry-name reads entries.{name}, which declares no "
                             f"{'menu way' if menu is None else 'pinned or home name'}")
        return {"mapping": menu.mapping, "key": menu.key, "expected": expected}

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        tree = require_tree(ctx)
        opts = self.options
        if opts.mapping is None or opts.key is None:
            raise ValueError("entry-name's `entry` is read from the declaration's [entries]")
        entry = f"{opts.mapping}[{opts.key!r}]"
        value = menu_entry(tree, opts.mapping, opts.key)
        if value is None:
            yield self.violation(ctx, "missing", line=None, entry=entry)
            return
        found = defined_name(tree, value)
        if found is not None and found not in opts.expected:
            wanted = " or ".join(f"`{name}`" for name in opts.expected)
            yield self.violation(ctx, "renamed", value, entry=entry, found=found, wanted=wanted)


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
