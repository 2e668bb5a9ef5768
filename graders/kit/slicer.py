"""Cut a module down to the top-level names some code needs (read with ``ast``, never run).

The kit carries only what the public tests reach: a test module keeps its public tests and
the helpers, constants and imports they use, so hidden tests, their seeds and whatever only
they use are never written into a kit. Statements keep their original text (and line
breaks); comments between kept statements are dropped, as they may talk about hidden tests.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

ENGINE = "graders"
KIT = "_precheck"
_IMPORT_LINE = re.compile(rf"(?m)^(\s*)(from|import) {ENGINE}(?=[\s.])")


@dataclass
class Slice:
    """The kept text of one module and the names it imports from each other module."""

    text: str
    imports: dict[str, set[str]] = field(default_factory=dict)  # module -> names (or {"*"})


def rename_imports(text: str) -> str:
    """Point ``graders`` imports of vendored code at the kit's private copy, ``_precheck``."""
    return _IMPORT_LINE.sub(rf"\1\2 {KIT}", text)


def defined_names(node: ast.stmt) -> set[str]:
    """The names a top-level statement binds."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            found.add(sub.id)
    return found


def used_names(node: ast.AST) -> set[str]:
    """Every name a statement reads (at any depth: a function's body runs later, but what it
    reads must be there when it does)."""
    return {sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name)
            and isinstance(sub.ctx, ast.Load)}


def fixture_names(node: ast.stmt) -> set[str]:
    """The parameters of a function: pytest fills them from fixtures of the same module."""
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return set()
    arguments = node.args
    return {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(
        node.value.value, str)


def slice_module(source: str, roots: Iterable[str], *, title: str = "") -> Slice:
    """``source`` reduced to the statements that define ``roots`` and what those need.

    ``roots`` may hold ``*`` for every top-level name. Imports keep only the names used;
    ``from __future__`` imports are kept. ``title`` becomes the module's docstring.
    """
    tree = ast.parse(source)
    body = [n for n in tree.body if not _is_docstring(n) or n is not tree.body[0]]
    statements = [n for n in body if not _is_docstring(n)]
    wanted = set(roots)
    if "*" in wanted:
        wanted = set().union(*(defined_names(n) for n in statements)) - {"*"}
    kept: set[int] = set()
    pending = list(wanted)
    needed: set[str] = set()
    while pending:
        name = pending.pop()
        if name in needed:
            continue
        needed.add(name)
        for index, node in enumerate(statements):
            if name in defined_names(node) and index not in kept:
                kept.add(index)
                if not isinstance(node, ast.Import | ast.ImportFrom):
                    pending += sorted((used_names(node) | fixture_names(node)) - needed)
    lines = source.splitlines()
    parts = [f'"""{title or "Vendored by `grade kit`."}"""', ""]
    imports: dict[str, set[str]] = {}
    for index, node in enumerate(statements):
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            parts.append(ast.unparse(node))
            continue
        if index not in kept:
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            text = _import_text(node, needed, imports)
            if text:
                parts.append(text)
            continue
        parts.append("")
        parts.append("\n".join(lines[_first_line(node) - 1:node.end_lineno]))
    return Slice("\n".join(parts).rstrip() + "\n", imports)


def _import_text(node: ast.Import | ast.ImportFrom, needed: set[str],
                 imports: dict[str, set[str]]) -> str:
    aliases = [a for a in node.names if (a.asname or a.name).split(".")[0] in needed]
    if not aliases:
        return ""
    if isinstance(node, ast.Import):
        for alias in aliases:
            imports.setdefault(alias.name, set()).add("*")
        return ast.unparse(ast.Import(names=aliases))
    module = "." * node.level + (node.module or "")
    for alias in aliases:
        imports.setdefault(module, set()).add(alias.name)
    return ast.unparse(ast.ImportFrom(module=node.module, names=aliases, level=node.level))
