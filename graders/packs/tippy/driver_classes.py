"""The classes a tippy submission is played with, found the way the course reaches them.

Imported by ``driver.py`` and ``driver_moves.py`` (copied beside them into the sandbox);
stdlib only, never imports ``graders``. The handout pins ``TippyGameState`` in
``tippy_game_state.py`` and ``StrategyMinimax`` in ``strategy_minimax.py``; game_view.py's
``__main__`` menus (``game_state['t']``, ``strategy['m']``) name the classes the student's game
is actually played with, whatever they are called and whichever module defines them. Each
class is found in this order:

1. the pinned name in the pinned module (so on a mixed workspace the reference's copy wins);
   passed over when it is the starter's unwritten stub (every method ends by raising
   ``NotImplementedError``) and the menu names another class;
2. the menu entry, read from game_view.py with ``ast`` (game_view.py is never imported or run
   to find it): the class is imported from the module game_view.py imports it from. The menu
   is the starter's dict, or the dict game_view.py passes to ``GameView(...)``.

A class reached neither way is a :class:`ClassNotFound` naming what was looked for.
"""

import ast
import importlib
import inspect
import textwrap
from pathlib import Path
from typing import NamedTuple

VIEW = "game_view.py"


class Entry(NamedTuple):
    """How one class is reached: the handout's pin, then the starter's menu."""

    what: str
    module: str
    name: str
    mapping: str
    key: str
    position: int  # of the menu's class in GameView(state_class, strategy_class)


ENTRIES = {
    "state": Entry("the tippy state class", "tippy_game_state", "TippyGameState",
                   "game_state", "t", 0),
    "minimax": Entry("the minimax strategy class", "strategy_minimax", "StrategyMinimax",
                     "strategy", "m", 1),
}
_FOUND = {}


class ClassNotFound(LookupError):
    """A class the grader needs is reachable neither by its pinned name nor through the menu."""


def state_class():
    """Return the student's tippy state class (see the module docstring)."""
    return resolve("state")


def minimax_class():
    """Return the student's minimax strategy class (see the module docstring)."""
    return resolve("minimax")


def resolve(kind):
    """Return the class for kind ('state' or 'minimax'); raise ClassNotFound if unreachable.

    Found once per process (a worker serves one workspace).
    """
    if kind not in _FOUND:
        _FOUND[kind] = _resolve(kind)
    return _FOUND[kind]


def menu_class(kind):
    """Return the class game_view.py's menu names for kind, or None when it names none."""
    return _from_menu(kind)[0]


def _resolve(kind):
    entry = ENTRIES[kind]
    pinned, pinned_why, error = _pinned(entry.module, entry.name)
    if pinned is not None and not _unwritten(pinned):
        return pinned
    menu, menu_why = _from_menu(kind)
    if menu is not None:
        return menu
    if pinned is not None:
        return pinned  # the stub: it fails with its own message
    if error is not None:
        raise error
    raise ClassNotFound(f"{entry.what} was not found: looked for `{entry.name}` in "
                        f"{entry.module}.py ({pinned_why}), then for "
                        f"`{entry.mapping}[{entry.key!r}]` in {VIEW}'s menu ({menu_why})")


def _pinned(module, name):
    """(class or None, why not, the student's own import error or None)."""
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None, f"no {module}.py was handed in", None
        return None, f"{module}.py could not be imported", exc
    except Exception as exc:  # noqa: BLE001 - the student's module failed: theirs to see
        return None, f"{module}.py could not be imported", exc
    if not inspect.isclass(getattr(found, name, None)):
        return None, f"{module}.py defines no class `{name}`", None
    return getattr(found, name), "", None


def _unwritten(cls):
    """Whether cls is a starter stub: it has methods and each ends by raising
    NotImplementedError."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return False
    methods = [node for node in tree.body[0].body if isinstance(node, ast.FunctionDef)] \
        if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    return bool(methods) and all(_raises_not_implemented(m.body[-1]) for m in methods)


def _raises_not_implemented(statement):
    if not isinstance(statement, ast.Raise) or statement.exc is None:
        return False
    raised = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def _view_tree():
    """game_view.py's syntax tree, or (None, why) when it cannot be read."""
    try:
        return ast.parse(Path(VIEW).read_text(encoding="utf-8")), ""
    except OSError:
        return None, f"no {VIEW} was handed in"
    except (SyntaxError, ValueError) as exc:
        return None, f"{VIEW} could not be read: {type(exc).__name__}: {exc}"


def _from_menu(kind):
    """(the class the menu names, or None; why not)."""
    tree, why = _view_tree()
    if tree is None:
        return None, why
    entry = ENTRIES[kind]
    names = [entry.mapping] + [n for n in _menus_passed(tree, entry.position)
                               if n != entry.mapping]
    for menu in names:
        value = _menu_entry(tree, menu, entry.key)
        if value is not None:
            return _import_named(tree, value)
    return None, f"no entry {entry.key!r} in its `{'`, `'.join(names)}` menu"


def _menus_passed(tree, position):
    """Names of the dicts game_view.py indexes in its ``GameView(x[g], y[s])`` calls."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "GameView" and len(node.args) > position:
            arg = node.args[position]
            if isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name):
                names.append(arg.value.id)
    return names


def _menu_entry(tree, mapping, key):
    """The expression bound last (in source order) to ``mapping[key]``: in a dict display
    assigned to mapping, or by ``mapping[key] = ...``, anywhere in the module (the starter's
    menus sit in its ``__main__`` block)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Name) and target.id == mapping and \
                    isinstance(node.value, ast.Dict):
                pairs = zip(node.value.keys, node.value.values, strict=True)
                found += [(node.lineno, v) for k, v in pairs
                          if isinstance(k, ast.Constant) and k.value == key]
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and \
                    target.value.id == mapping and isinstance(target.slice, ast.Constant) and \
                    target.slice.value == key:
                found.append((node.lineno, node.value))
    return max(found, key=lambda pair: pair[0])[1] if found else None


def _bindings(tree):
    """{bound name: (module, name or '')} of game_view.py's imports; star imports under '*'."""
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if alias.name == "*":
                    bound.setdefault("*", []).append(node.module)
                else:
                    bound[alias.asname or alias.name] = (node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name] = (alias.name, "")
    return bound


def _import_named(tree, entry):
    """(the class entry names, imported from its own module, or None; why not)."""
    bound, shown = _bindings(tree), ast.unparse(entry)
    if isinstance(entry, ast.Name) and entry.id in bound and bound[entry.id][1]:
        module, name = bound[entry.id]
    elif isinstance(entry, ast.Attribute) and isinstance(entry.value, ast.Name) and \
            entry.value.id in bound and not bound[entry.value.id][1]:
        module, name = bound[entry.value.id][0], entry.attr
    elif isinstance(entry, ast.Name) and bound.get("*"):
        module, name = next((m for m in bound["*"] if _defines(m, entry.id)), None), entry.id
        if module is None:
            return None, f"it names `{shown}`, which none of its `import *` modules defines"
    else:
        return None, f"it names `{shown}`, which {VIEW} does not import from a module"
    try:
        found = getattr(importlib.import_module(module), name, None)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return None, f"it names `{shown}`, but no {module}.py was handed in"
    if not inspect.isclass(found):
        return None, f"it names `{shown}`, but {module}.py defines no class `{name}`"
    return found, ""


def _defines(module, name):
    try:
        return hasattr(importlib.import_module(module), name)
    except Exception:  # noqa: BLE001 - a module that fails to import defines nothing usable
        return False
