"""Function definitions of a module, named by where they sit (``f``, ``Cls.m``, ``f.inner``).

Shared by ``template-functions`` and ``template-comments``.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class FunctionInfo:
    """One ``def``; ``parent`` is the qualified name of what holds it (``""`` for the module)."""

    qualname: str
    parent: str
    in_function: bool
    node: FunctionNode

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def params(self) -> str:
        """The parameter list as written, without annotations (``state, depth, isMax=True``)."""
        return parameters(self.node.args)

    @property
    def is_async(self) -> bool:
        return isinstance(self.node, ast.AsyncFunctionDef)

    @property
    def signature(self) -> str:
        """``def name(params)`` (``async def`` when async)."""
        prefix = "async def" if self.is_async else "def"
        return f"{prefix} {self.name}({self.params})"

    @property
    def first_line(self) -> int:
        """The line the definition starts on: its first decorator, or the ``def``."""
        return min([self.node.lineno, *(d.lineno for d in self.node.decorator_list)])


def parameters(args: ast.arguments) -> str:
    """``args`` unparsed with every annotation removed (defaults and kinds kept)."""
    bare = copy.deepcopy(args)
    for arg in [*bare.posonlyargs, *bare.args, *bare.kwonlyargs, bare.vararg, bare.kwarg]:
        if arg is not None:
            arg.annotation = None
    return ast.unparse(bare)


def collect_functions(tree: ast.Module, *, methods: bool) -> list[FunctionInfo]:
    """Every ``def`` in ``tree`` in source order; class bodies only when ``methods``."""
    found: list[FunctionInfo] = []

    def walk(node: ast.AST, parent: str, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                qualname = f"{parent}.{child.name}" if parent else child.name
                found.append(FunctionInfo(qualname, parent, in_function, child))
                walk(child, qualname, True)
            elif isinstance(child, ast.ClassDef):
                if methods:
                    walk(child, f"{parent}.{child.name}" if parent else child.name, in_function)
            else:
                walk(child, parent, in_function)

    walk(tree, "", False)
    return sorted(found, key=lambda f: (f.node.lineno, f.node.col_offset))


def has_classes(tree: ast.Module) -> bool:
    """True when ``tree`` defines a class anywhere."""
    return any(isinstance(node, ast.ClassDef) for node in ast.walk(tree))
