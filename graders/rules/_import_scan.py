"""What ``forbidden-import`` looks for, found in one pass over the tree.

Import statements are recorded with the block they sit in; dynamic imports (``__import__``,
``importlib``), dynamic code (``exec``/``eval``/``compile``) and ``sys.modules`` are recorded as
uses. Names the file binds itself shadow the builtins: a template may define its own
``eval``, and calling that is not dynamic code.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from graders.rules._source import shorten

DYNAMIC_CODE = frozenset({"exec", "eval", "compile"})
IMPORT_FUNCTIONS = frozenset({"__import__", "import_module"})

ImportNode = ast.Import | ast.ImportFrom
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass(frozen=True)
class FoundImport:
    """An import statement and the block holding it (``None`` at the top level of the file)."""

    node: ImportNode
    container: str | None


@dataclass(frozen=True)
class DynamicUse:
    """A use of a dynamic import, dynamic code or ``sys.modules``: ``key`` names which."""

    key: str
    node: ast.expr
    what: str


@dataclass
class ImportScan:
    """Everything found; ``allows_module`` says which dynamic imports of a constant are fine."""

    allows_module: Callable[[str], bool]
    imports: list[FoundImport] = field(default_factory=list)
    uses: list[DynamicUse] = field(default_factory=list)


def scope_bindings(body: Iterable[ast.AST], args: ast.arguments | None = None) -> set[str]:
    """Names bound in one scope (params, stores, defs, imports), not looking into inner scopes.

    Over-approximates a little (comprehension variables count), which only shadows more.
    """
    names = {a.arg for a in _all_args(args)} if args else set()
    pending = list(body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            continue
        if isinstance(node, ast.Lambda):
            continue
        names.update(_bound_by(node))
        pending.extend(ast.iter_child_nodes(node))
    return names


def _bound_by(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        return [node.id]
    if isinstance(node, ast.alias):
        return [node.asname or node.name.split(".")[0]]
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchMapping) and node.rest:
        return [node.rest]
    return []


def _all_args(args: ast.arguments) -> list[ast.arg]:
    extra = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *extra]


def _constant_str(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


class ImportFinder(ast.NodeVisitor):
    """Walks a module once and fills an :class:`ImportScan`."""

    def __init__(self, scan: ImportScan, tree: ast.Module) -> None:
        self.scan = scan
        self.blocks: list[str] = []
        self.scopes: list[tuple[str, set[str]]] = [("module", scope_bindings(tree.body))]

    # --- blocks and scopes -------------------------------------------------------------

    def _in_block(self, label: str, node: ast.AST) -> None:
        self.blocks.append(shorten(label, 50))
        self.generic_visit(node)
        self.blocks.pop()

    def _function(self, node: FunctionNode, label: str) -> None:
        for outer in [*getattr(node, "decorator_list", []), *node.args.defaults]:
            self.visit(outer)
        for default in node.args.kw_defaults:
            if default is not None:
                self.visit(default)
        body = node.body if isinstance(node.body, list) else [node.body]
        self.scopes.append(("function", scope_bindings(body, node.args)))
        self.blocks.append(shorten(label, 50))
        for statement in body:
            self.visit(statement)
        self.blocks.pop()
        self.scopes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node, f"def {node.name}")

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node, f"async def {node.name}")

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._function(node, "lambda")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for outer in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(outer)
        self.scopes.append(("class", scope_bindings(node.body)))
        self.blocks.append(f"class {node.name}")
        for statement in node.body:
            self.visit(statement)
        self.blocks.pop()
        self.scopes.pop()

    def visit_If(self, node: ast.If) -> None:
        self._in_block(f"if {ast.unparse(node.test)}:", node)

    def visit_While(self, node: ast.While) -> None:
        self._in_block(f"while {ast.unparse(node.test)}:", node)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self._in_block(f"for {ast.unparse(node.target)} in {ast.unparse(node.iter)}:", node)

    visit_AsyncFor = visit_For

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        items = ", ".join(ast.unparse(item) for item in node.items)
        self._in_block(f"with {items}:", node)

    visit_AsyncWith = visit_With

    def visit_Try(self, node: ast.Try) -> None:
        self._in_block("try:", node)

    def visit_TryStar(self, node: ast.TryStar) -> None:
        self._in_block("try:", node)

    def visit_Match(self, node: ast.Match) -> None:
        self._in_block(f"match {ast.unparse(node.subject)}:", node)

    def shadowed(self, name: str) -> bool:
        """True when ``name`` refers to something the file binds, not to a builtin."""
        innermost = len(self.scopes) - 1
        return any(
            name in names
            for depth, (kind, names) in enumerate(self.scopes)
            if kind != "class" or depth == innermost
        )

    # --- what is recorded -------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> None:
        self.scan.imports.append(FoundImport(node, self.blocks[-1] if self.blocks else None))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.scan.imports.append(FoundImport(node, self.blocks[-1] if self.blocks else None))

    def _use(self, key: str, node: ast.expr) -> None:
        self.scan.uses.append(DynamicUse(key, node, shorten(ast.unparse(node))))

    def visit_Call(self, node: ast.Call) -> None:
        reflected = _getattr_key(node)
        key = reflected or self._reference_key(node.func)
        if key is None:
            self.generic_visit(node)
            return
        if not (key == "dynamic-import" and self._imports_allowed_module(node)):
            self._use(key, node)
        arguments = node.args[2:] if reflected else node.args  # the object was reported with it
        for argument in [*arguments, *node.keywords]:
            self.visit(argument)

    def _imports_allowed_module(self, node: ast.Call) -> bool:
        module = _constant_str(node.args[0]) if node.args else None
        return module is not None and self.scan.allows_module(module)

    def _reference_key(self, node: ast.expr) -> str | None:
        """The kind of use ``node`` is, when it names a dynamic import/code or sys.modules."""
        if isinstance(node, ast.Name):
            if node.id in {"__import__", "__builtins__"}:
                return "dynamic-import"
            if node.id in DYNAMIC_CODE and not self.shadowed(node.id):
                return "dynamic-code"
            return None
        if not isinstance(node, ast.Attribute):
            return None
        base = node.value.id if isinstance(node.value, ast.Name) else None
        if node.attr in IMPORT_FUNCTIONS or base in {"importlib", "__builtins__"}:
            return "dynamic-import"
        if node.attr in DYNAMIC_CODE and base == "builtins":
            return "dynamic-code"
        if node.attr == "modules" and base == "sys":
            return "sys-modules"
        return None

    def visit_Name(self, node: ast.Name) -> None:
        key = self._reference_key(node)
        if key is not None:
            self._use(key, node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        key = self._reference_key(node)
        if key is not None:
            self._use(key, node)
        else:
            self.generic_visit(node)


def _getattr_key(node: ast.Call) -> str | None:
    """The kind of use of ``getattr(x, "name")`` (or hasattr/setattr) with a constant name."""
    func = node.func
    if not (isinstance(func, ast.Name) and func.id in {"getattr", "hasattr", "setattr"}):
        return None
    name = _constant_str(node.args[1]) if len(node.args) >= 2 else None
    target = node.args[0] if node.args else None
    if name in IMPORT_FUNCTIONS:
        return "dynamic-import"
    if name in DYNAMIC_CODE:
        return "dynamic-code"
    if name == "modules" and isinstance(target, ast.Name) and target.id == "sys":
        return "sys-modules"
    return None


def find_imports(tree: ast.Module, allows_module: Callable[[str], bool]) -> ImportScan:
    """Scan ``tree`` for imports and dynamic uses."""
    scan = ImportScan(allows_module)
    ImportFinder(scan, tree).visit(tree)
    return scan
