"""Rule ``module-global``: no variables at module level, and no ``global`` statements.

A binding counts when it happens in the module's own scope: assignments of every form
(plain, augmented, annotated with or without a value, tuple/list/starred targets, stores into
``x.attr`` or ``x[i]``), walrus expressions (also inside module-level comprehensions and in
default values, which run at module level), ``for``/``with``/``except``/``case`` targets, in
module-level ``if``/``try``/``while`` blocks too. ``if __name__ == "__main__":`` is no exception
unless ``allow_main_block`` is set. Imports, ``def`` and ``class`` are left to other rules.
Every name declared ``global`` inside a function is reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from graders.rules import register
from graders.rules._source import is_main_guard, require_tree, shorten
from graders.rules.base import Rule, RuleContext, Violation


class GlobalOptions(BaseModel):
    """Options of ``module-global``."""

    model_config = ConfigDict(extra="forbid")

    allowed_names: list[str] = Field(
        default_factory=list,
        description="Module-level names that may be bound, e.g. ['__author__'].",
    )
    allow_main_block: bool = Field(
        default=False,
        description='Allow bindings inside `if __name__ == "__main__":` (its else is still '
        "checked).",
    )


@dataclass(frozen=True)
class Binding:
    """A name bound at module level: ``key`` is the message key (the kind of binding)."""

    key: str
    name: str
    node: ast.AST


class ModuleBindings(ast.NodeVisitor):
    """Collects the bindings of the module scope; inner scopes are skipped."""

    def __init__(self, allow_main_block: bool) -> None:
        self.allow_main_block = allow_main_block
        self.found: list[Binding] = []

    def bind(self, target: ast.expr, key: str) -> None:
        """Record the names ``target`` binds; visit what it evaluates (e.g. ``x[i := 0]``)."""
        if isinstance(target, ast.Name):
            self.found.append(Binding(key, target.id, target))
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self.bind(element, key)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, key)
        else:
            self.found.append(Binding("store-into", shorten(ast.unparse(target)), target))
            self.generic_visit(target)

    # --- inner scopes: only the parts evaluated at module level ---------------------------

    def _outer_parts(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        parts: list[ast.AST | None] = [*node.args.defaults, *node.args.kw_defaults]
        if not isinstance(node, ast.Lambda):
            parts += node.decorator_list
        for part in parts:
            if part is not None:
                self.visit(part)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._outer_parts(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._outer_parts(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._outer_parts(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for part in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(part)

    # --- bindings ----------------------------------------------------------------------

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self.bind(target, "assign")

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        self.bind(node.target, "assign")

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        self.bind(node.target, "assign")

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self.bind(node.target, "walrus")

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.visit(node.iter)
        self.bind(node.target, "loop-target")
        for statement in [*node.body, *node.orelse]:
            self.visit(statement)

    visit_AsyncFor = visit_For

    def visit_withitem(self, node: ast.withitem) -> None:
        self.visit(node.context_expr)
        if node.optional_vars is not None:
            self.bind(node.optional_vars, "with-target")

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.found.append(Binding("except-target", node.name, node))
        self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        if node.name:
            self.found.append(Binding("match-target", node.name, node))
        self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        if node.name:
            self.found.append(Binding("match-target", node.name, node))

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        if node.rest:
            self.found.append(Binding("match-target", node.rest, node))
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        if self.allow_main_block and is_main_guard(node):
            for statement in node.orelse:
                self.visit(statement)
        else:
            self.generic_visit(node)


def global_statements(tree: ast.Module) -> Iterator[tuple[ast.Global, str]]:
    """Each ``global`` statement inside a function, with the function's name."""
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        pending: list[ast.AST] = list(function.body)
        while pending:
            node = pending.pop(0)
            if isinstance(node, ast.Global):
                yield node, function.name
            elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                pending.extend(ast.iter_child_nodes(node))


def _root_name(name: str) -> str:
    return name.split(".")[0].split("[")[0]


@register
class ModuleGlobal(Rule):
    """Reports module-level variables and ``global`` statements."""

    name = "module-global"
    Options = GlobalOptions
    options: GlobalOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        tree = require_tree(ctx)
        allowed = set(self.options.allowed_names)
        collector = ModuleBindings(self.options.allow_main_block)
        collector.visit(tree)
        found = [
            self.violation(ctx, b.key, b.node, name=b.name)
            for b in collector.found
            if _root_name(b.name) not in allowed
        ]
        found += [
            self.violation(ctx, "global-statement", node, name=name, function=function)
            for node, function in global_statements(tree)
            for name in node.names
        ]
        yield from sorted(found, key=lambda v: (v.line or 0, v.column or 0))
