"""Rule ``no-recursion``: named functions reach no recursion through the file's call graph.

For a function that must be iterative (e.g. an iterative minimax). The graph's nodes are the
file's functions (``f``, ``Cls.m``, ``f.inner``); an edge is any use of a name that resolves to
one of them, called or not (``key=score`` counts). Names resolve to nested functions of the
enclosing functions, then module functions, then classes (their ``__init__``). ``self.m`` and
``cls.m`` resolve in the enclosing class, ``Cls.m`` in ``Cls``, ``super().m`` in the other
classes; ``x.m`` on any other object resolves to every method ``m`` of the file's classes,
except for names of built-in container and string methods (``copy``, ``append``...), whose
calls on unknown objects are taken for the built-ins. Every recursive function reachable from a
target (one per cycle) is a violation, reported at its ``def`` with the cycle.

Recursion through function values counts too, where the file shows it: when a function calls
one of its parameters (``score(child)``, directly or by handing it on to another function that
calls it), every function passed as that argument anywhere in the file (by name, as
``self.m``, inside a ``lambda`` or ``functools.partial(f, ...)``) gets an edge from it. So
``_value(state, _value)`` with ``def _value(state, again): ... again(child, again)`` is a
cycle. Names built at run time (``globals()["f"]``, ``getattr``) stay invisible: the run-time
probe of the pack watches those. Functions made from text (``exec``, ``eval``, ``compile``)
cannot be read at all: each such call in the file is a violation of its own (``built_code``).

Targets are ``functions`` and, when ``interface_file`` is given, the functions that the module
level dict ``interface_mapping`` of that (submitted) file names under ``interface_keys``; a
student may call their strategy anything, so the rule finds it the way the game does. The rule
also reads the student's helper modules, so a strategy imported from one (``from tree import
minimax``) is checked in the module that defines it.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from pathlib import PurePath

from pydantic import BaseModel, ConfigDict, Field

from graders.rules import register
from graders.rules._functions import FunctionInfo, collect_functions
from graders.rules._source import require_tree
from graders.rules.base import Rule, RuleContext, Violation

BUILTIN_METHODS = frozenset({
    "append", "extend", "insert", "remove", "pop", "clear", "index", "count", "sort", "reverse",
    "copy", "get", "items", "keys", "values", "update", "setdefault", "popitem", "add",
    "discard", "union", "intersection", "difference", "join", "split", "strip", "replace",
    "format", "startswith", "endswith", "lower", "upper", "find",
})


class NoRecursionOptions(BaseModel):
    """Options of ``no-recursion``."""

    model_config = ConfigDict(extra="forbid")

    functions: list[str] = Field(
        default_factory=list,
        description="Qualified names of functions that must not recurse, e.g. "
        "['iterative_minimax_strategy'].",
    )
    interface_file: str | None = Field(
        default=None,
        description="A submitted file whose module-level dict names the target functions, "
        "e.g. 'game_interface.py'.",
    )
    interface_mapping: str = Field(
        default="usable_strategies", description="The name of that dict."
    )
    interface_keys: list[str] = Field(
        default_factory=list, description="Its keys whose values are targets, e.g. ['mi']."
    )


@register
class NoRecursion(Rule):
    """Reports recursion reachable from the target functions."""

    name = "no-recursion"
    Options = NoRecursionOptions
    options: NoRecursionOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        functions = {f.qualname: f for f in collect_functions(require_tree(ctx), methods=True)}
        graph = CallGraph(require_tree(ctx), functions)
        reported: set[str] = set()
        for target, label in self._targets(ctx, functions):
            for name in graph.reachable(target):
                cycle = graph.cycle_through(name)
                if cycle is None or reported & set(cycle):
                    continue
                reported.update(cycle)
                looped = " -> ".join([*cycle, cycle[0]])
                if target in cycle:
                    yield self.violation(ctx, "recursion", functions[name].node, function=name,
                                         target=label, cycle=looped)
                else:  # a recursive helper it calls, which another solution may need as is
                    yield self.violation(ctx, "reached", functions[name].node, function=name,
                                         target=label, cycle=looped,
                                         path=" -> ".join(graph.path(target, name)))
        targets = self._targets(ctx, functions)
        for node, call in built_code(require_tree(ctx)):
            target = targets[0][1] if targets else "the solution that must be iterative"
            yield self.violation(ctx, "built_code", node, call=call, target=target)

    def _targets(self, ctx: RuleContext,
                 functions: dict[str, FunctionInfo]) -> list[tuple[str, str]]:
        found = [(name, f"`{name}`") for name in self.options.functions if name in functions]
        module = PurePath(ctx.file).stem
        source = ctx.submitted.get(self.options.interface_file or "")
        if source is not None:
            mapping = self.options.interface_mapping
            for key, name in interface_names(source, mapping, self.options.interface_keys,
                                             module):
                if name in functions:
                    found.append((name, f"`{name}` ({mapping}[{key!r}])"))
        return list(dict.fromkeys(found))


BUILDERS = frozenset({"exec", "eval", "compile"})


def built_code(tree: ast.Module) -> Iterator[tuple[ast.Call, str]]:
    """Each call of ``exec``, ``eval`` or ``compile`` (bare or as ``builtins.exec``) in the
    file: functions made from text at run time are invisible to the call graph, so a file
    that must hold an iterative solution may not make them (the run-time watch sees their
    recursion too, and this rule says why the file cannot be read)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in BUILDERS:
            yield node, func.id
        elif (isinstance(func, ast.Attribute) and func.attr in BUILDERS
              and isinstance(func.value, ast.Name)
              and func.value.id in ("builtins", "__builtins__")):
            yield node, f"{func.value.id}.{func.attr}"


def interface_names(source: str, mapping: str, keys: list[str],
                    module: str) -> list[tuple[str, str]]:
    """(key, function name in ``module``) for each key of the dict ``mapping`` in ``source``."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    imported = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == module:
            imported.update({a.asname or a.name: a.name for a in node.names})
    found = []
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)):
            continue
        if not any(isinstance(t, ast.Name) and t.id == mapping for t in node.targets):
            continue
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            if isinstance(key, ast.Constant) and key.value in keys:
                name = _referenced(value, imported, module)
                if name:
                    found.append((str(key.value), name))
    return found


def _referenced(value: ast.expr, imported: dict[str, str], module: str) -> str | None:
    if isinstance(value, ast.Name):
        return imported.get(value.id)
    if (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
            and value.value.id == module):
        return value.attr
    return None


class CallGraph:
    """Which of a module's functions each function uses (see the module docstring)."""

    def __init__(self, tree: ast.Module, functions: dict[str, FunctionInfo]) -> None:
        self.functions = functions
        self.classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        self.edges = {name: self._uses(info) for name, info in functions.items()}
        for caller, target in ParameterFlow(self).edges():
            if target not in self.edges[caller]:
                self.edges[caller].append(target)

    def reachable(self, start: str) -> list[str]:
        """``start`` and every function it can reach, in breadth-first order."""
        seen, queue = [start], deque([start])
        while queue:
            for nxt in self.edges.get(queue.popleft(), []):
                if nxt not in seen:
                    seen.append(nxt)
                    queue.append(nxt)
        return seen

    def path(self, start: str, end: str) -> list[str]:
        """A shortest call path from ``start`` to ``end`` (which it reaches)."""
        parents: dict[str, str] = {}
        queue = deque([start])
        while queue and end not in parents:
            current = queue.popleft()
            for nxt in self.edges.get(current, []):
                if nxt not in parents and nxt != start:
                    parents[nxt] = current
                    queue.append(nxt)
        path = [end]
        while path[-1] != start:
            path.append(parents[path[-1]])
        return path[::-1]

    def cycle_through(self, name: str) -> list[str] | None:
        """A shortest call path from ``name`` back to itself, or None."""
        parents: dict[str, str] = {}
        queue = deque([name])
        while queue:
            current = queue.popleft()
            for nxt in self.edges.get(current, []):
                if nxt == name:
                    path = [current]
                    while path[-1] != name:
                        path.append(parents[path[-1]])
                    return path[::-1]
                if nxt not in parents:
                    parents[nxt] = current
                    queue.append(nxt)
        return None

    def _uses(self, info: FunctionInfo) -> list[str]:
        owner = self._owner_class(info)
        used: list[str] = []
        for node in _own_nodes(info.node):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                used += self._resolve_name(info, node.id)
            elif isinstance(node, ast.Attribute):
                used += self._resolve_attribute(node, owner)
        return list(dict.fromkeys(u for u in used if u in self.functions))

    def _owner_class(self, info: FunctionInfo) -> str | None:
        parent = info.parent
        if parent and parent.split(".")[0] in self.classes and parent not in self.functions:
            return parent
        return None

    def resolve(self, info: FunctionInfo, node: ast.expr) -> list[str]:
        """The file's functions an expression used as a value or a callee names."""
        if isinstance(node, ast.Name):
            found = self._resolve_name(info, node.id)
        elif isinstance(node, ast.Attribute):
            found = self._resolve_attribute(node, self._owner_class(info))
        else:
            return []
        return [name for name in found if name in self.functions]

    def _resolve_name(self, info: FunctionInfo, name: str) -> list[str]:
        scope = info.qualname
        while scope:
            if scope in self.functions and f"{scope}.{name}" in self.functions:
                return [f"{scope}.{name}"]
            scope = scope.rpartition(".")[0]
        if name in self.functions:
            return [name]
        if name in self.classes:
            return [f"{name}.__init__"]
        return []

    def _resolve_attribute(self, node: ast.Attribute, owner: str | None) -> list[str]:
        receiver, method = node.value, node.attr
        own = isinstance(receiver, ast.Name) and receiver.id in ("self", "cls") and owner
        if own and f"{owner}.{method}" in self.functions:
            return [f"{owner}.{method}"]
        if isinstance(receiver, ast.Name) and receiver.id in self.classes:
            return [f"{receiver.id}.{method}"]
        is_super = (isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name)
                    and receiver.func.id == "super")
        if method in BUILTIN_METHODS and not is_super:
            return []
        return [name for name in self.functions
                if name.endswith(f".{method}") and name.rpartition(".")[0] in self.classes
                and not (is_super and name == f"{owner}.{method}")]


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """Every node in ``function``'s body, not descending into nested defs and classes (they
    are functions of their own, or not called by being defined)."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


class ParameterFlow:
    """Edges for functions reached through a parameter (see the module docstring)."""

    def __init__(self, graph: CallGraph) -> None:
        self.graph = graph
        self.params = {name: _parameters(info.node) for name, info in graph.functions.items()}
        self.sites = {name: list(self._calls(info)) for name, info in graph.functions.items()}
        self.called = self._called_parameters()

    def edges(self) -> Iterator[tuple[str, str]]:
        """(function that calls a parameter, function passed to it) pairs."""
        for caller, sites in self.sites.items():
            info = self.graph.functions[caller]
            for callee, bound in sites:
                for param, value in bound:
                    if param in self.called[callee]:
                        for target in self._values(info, value):
                            yield callee, target

    def _calls(self, info: FunctionInfo) -> Iterator[tuple[str, list[tuple[str, ast.expr]]]]:
        for node in _own_nodes(info.node):
            if not isinstance(node, ast.Call):
                continue
            for callee in self.graph.resolve(info, node.func):
                yield callee, self._bind(callee, node)

    def _bind(self, callee: str, call: ast.Call) -> list[tuple[str, ast.expr]]:
        names = self.params[callee]
        skip = 1 if names[:1] in (["self"], ["cls"]) and isinstance(call.func, ast.Attribute) else 0
        bound = [(names[index + skip], arg) for index, arg in enumerate(call.args)
                 if index + skip < len(names) and not isinstance(arg, ast.Starred)]
        return bound + [(kw.arg, kw.value) for kw in call.keywords if kw.arg in names]

    def _called_parameters(self) -> dict[str, set[str]]:
        called = {name: self._direct(info) for name, info in self.graph.functions.items()}
        changed = True
        while changed:  # a parameter handed on to a function that calls it is called too
            changed = False
            for caller, sites in self.sites.items():
                for callee, bound in sites:
                    for param, value in bound:
                        if not isinstance(value, ast.Name) or param not in called[callee]:
                            continue
                        if value.id in self.params[caller] and value.id not in called[caller]:
                            called[caller].add(value.id)
                            changed = True
        return called

    def _direct(self, info: FunctionInfo) -> set[str]:
        names = set(self.params[info.qualname])
        return {node.func.id for node in _own_nodes(info.node)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in names}

    def _values(self, info: FunctionInfo, value: ast.expr) -> list[str]:
        """The file's functions an argument hands over: a name, a lambda's or a partial's."""
        if isinstance(value, ast.Lambda):
            return [found for node in ast.walk(value.body) if isinstance(node, ast.expr)
                    for found in self.graph.resolve(info, node)]
        if isinstance(value, ast.Call) and _is_partial(value.func):
            return [found for arg in value.args[:1] for found in self._values(info, arg)]
        return self.graph.resolve(info, value)


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    args = node.args
    return [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]


def _is_partial(func: ast.expr) -> bool:
    return (isinstance(func, ast.Name) and func.id == "partial") or (
        isinstance(func, ast.Attribute) and func.attr == "partial")
