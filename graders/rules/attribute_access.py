"""Rule ``attribute-access``: the provided classes are used through their methods only.

The attribute names come from the locked classes file (``classes_file``): ``self.<name> = ...``
in any method (``self`` being the method's first parameter), class-level assignments and
``__slots__`` entries. Every ``<expr>.<name>`` in the file (read, write or ``del``) is reported,
and so are ``getattr``/``setattr``/``hasattr``/``delattr`` with that name as a constant string
and ``<expr>.__dict__["<name>"]``. When the classes file has an accessor (a method whose body
only returns ``self.<name>``) or a setter (a method whose body only assigns a parameter to
``self.<name>``), the message names it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from graders.errors import GraderError
from graders.rules import register
from graders.rules._source import require_tree, shorten
from graders.rules.base import Rule, RuleContext, Violation

_REFLECTION = {"getattr": "read", "hasattr": "read", "setattr": "write", "delattr": "delete"}


class AccessOptions(BaseModel):
    """Options of ``attribute-access``."""

    model_config = ConfigDict(extra="forbid")

    classes_file: str | None = Field(
        default=None,
        description="Locked file defining the provided classes (e.g. 'game_classes.py'); "
        "the attributes its classes define may not be used directly.",
    )
    extra_names: list[str] = Field(
        default_factory=list,
        description="More attribute names that may not be used directly.",
    )


@dataclass
class ClassAttributes:
    """Attribute names of the provided classes, with their accessor and setter methods."""

    names: set[str] = field(default_factory=set)
    getters: dict[str, str] = field(default_factory=dict)
    setters: dict[str, str] = field(default_factory=dict)


def _self_attribute(node: ast.expr, self_name: str) -> str | None:
    """``name`` when ``node`` is ``<self_name>.name``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr if node.value.id == self_name else None
    return None


def _body_without_docstring(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    body = function.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        return body[1:]
    return body


def _learn_method(method: ast.FunctionDef | ast.AsyncFunctionDef, found: ClassAttributes) -> None:
    params = [a.arg for a in [*method.args.posonlyargs, *method.args.args]]
    if not params:
        return
    self_name = params[0]
    for node in ast.walk(method):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            name = _self_attribute(target, self_name)
            if name is not None:
                found.names.add(name)
    body = _body_without_docstring(method)
    if len(body) != 1:
        return
    statement = body[0]
    if isinstance(statement, ast.Return) and statement.value is not None:
        name = _self_attribute(statement.value, self_name)
        if name is not None:
            found.getters.setdefault(name, method.name)
    elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        name = _self_attribute(statement.targets[0], self_name)
        value = statement.value
        if name is not None and isinstance(value, ast.Name) and value.id in params[1:]:
            found.setters.setdefault(name, method.name)


def _slot_names(value: ast.expr) -> list[str]:
    items = value.elts if isinstance(value, ast.Tuple | ast.List | ast.Set) else [value]
    return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]


def _class_level(statement: ast.stmt) -> tuple[list[ast.expr], ast.expr | None]:
    """Targets and value of a class-level assignment (``([], None)`` for anything else)."""
    if isinstance(statement, ast.Assign):
        return statement.targets, statement.value
    if isinstance(statement, ast.AnnAssign):
        return [statement.target], statement.value
    return [], None


def _learn_class(node: ast.ClassDef, found: ClassAttributes) -> None:
    for statement in node.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            _learn_method(statement, found)
            continue
        targets, value = _class_level(statement)
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            if target.id == "__slots__" and value is not None:
                found.names.update(_slot_names(value))
            elif not (target.id.startswith("__") and target.id.endswith("__")):
                found.names.add(target.id)


def class_attributes(source: str) -> ClassAttributes:
    """The attributes the classes in ``source`` define (every class, nested ones too)."""
    found = ClassAttributes()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            _learn_class(node, found)
    return found


@register
class AttributeAccess(Rule):
    """Reports direct use of the provided classes' attributes."""

    name = "attribute-access"
    Options = AccessOptions
    options: AccessOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        known = self._attributes(ctx)
        if not known.names:
            return
        for node in ast.walk(require_tree(ctx)):
            use = _use_of(node, known.names)
            if use is not None:
                yield self._report(ctx, node, known, *use)

    def _attributes(self, ctx: RuleContext) -> ClassAttributes:
        known = ClassAttributes(names=set(self.options.extra_names))
        file = self.options.classes_file
        if file is None:
            return known
        if file not in ctx.locked:
            raise GraderError(f"rule {self.name!r}: locked file {file!r} was not given")
        try:
            found = class_attributes(ctx.locked[file])
        except (SyntaxError, ValueError) as error:
            raise GraderError(f"locked file {file!r} does not parse: {error}") from None
        found.names |= known.names
        return found

    def _report(
        self,
        ctx: RuleContext,
        node: ast.AST,
        known: ClassAttributes,
        mode: str,
        obj: str,
        name: str,
    ) -> Violation:
        code = shorten(ast.unparse(node))
        method = (known.setters if mode == "write" else known.getters).get(name)
        if method is not None and mode != "delete":
            return self.violation(
                ctx, f"{mode}-method", node, object=obj, attribute=name, code=code, method=method
            )
        return self.violation(ctx, mode, node, object=obj, attribute=name, code=code)


def _mode(context: ast.expr_context) -> str:
    """``read``, ``write`` or ``delete``."""
    if isinstance(context, ast.Store):
        return "write"
    return "delete" if isinstance(context, ast.Del) else "read"


def _use_of(node: ast.AST, names: set[str]) -> tuple[str, str, str] | None:
    """``(mode, object, attribute)`` when ``node`` uses one of ``names`` directly."""
    if isinstance(node, ast.Attribute) and node.attr in names:
        return _mode(node.ctx), shorten(ast.unparse(node.value), 40), node.attr
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) >= 2:
        reflection = _REFLECTION.get(node.func.id)
        name = _constant(node.args[1])
        if reflection is not None and name is not None and name in names:
            return reflection, shorten(ast.unparse(node.args[0]), 40), name
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute):
        key = _constant(node.slice)
        if node.value.attr == "__dict__" and key is not None and key in names:
            return _mode(node.ctx), shorten(ast.unparse(node.value.value), 40), key
    return None


def _constant(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None
