"""The classes a tippy submission is played with (child side, stdlib only).

Each class is found: 1. by the handout's pinned name in its pinned module, unless that is the
starter's unwritten stub and the menu names another; 2. through game_view.py's menu
(``game_state['t']``, ``strategy['m']``, or the dict it passes to ``GameView``), read with
``ast`` and imported from the module game_view.py imports it from. Else ``ClassNotFound``.
"""

import ast
import importlib
import inspect
import textwrap
from pathlib import Path

VIEW = "game_view.py"
# kind: (what, pinned module, pinned name, menu, key, position in GameView(state, strategy))
ENTRIES = {
    "state": ("the tippy state class", "tippy_game_state", "TippyGameState", "game_state", "t", 0),
    "minimax": ("the minimax strategy class", "strategy_minimax", "StrategyMinimax",
                "strategy", "m", 1),
}
_FOUND = {}


class ClassNotFound(LookupError):
    """A class the grader needs is reachable neither by its pinned name nor through the menu."""


def state_class():
    """The student's tippy state class."""
    return resolve("state")


def minimax_class():
    """The student's minimax strategy class."""
    return resolve("minimax")


def resolve(kind):
    """The class for kind ('state' or 'minimax'), found once per process."""
    if kind not in _FOUND:
        _FOUND[kind] = _resolve(kind)
    return _FOUND[kind]


def menu_class(kind):
    """The class game_view.py's menu names for kind, or None."""
    return _from_menu(kind)[0]


def _resolve(kind):
    what, module, name, mapping, key, _ = ENTRIES[kind]
    pinned, pinned_why, error = _pinned(module, name)
    if pinned is not None and not _unwritten(pinned):
        return pinned
    menu, menu_why = _from_menu(kind)
    if menu is not None or pinned is not None:
        return menu or pinned  # the stub fails with its own message
    if error is not None:
        raise error
    raise ClassNotFound(f"{what} was not found: looked for `{name}` in {module}.py "
                        f"({pinned_why}), then for `{mapping}[{key!r}]` in {VIEW}'s menu "
                        f"({menu_why})")


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
    """Whether cls is a starter stub: every method ends by raising NotImplementedError."""
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


def _from_menu(kind):
    """(the class the menu names, or None; why not)."""
    try:
        tree = ast.parse(Path(VIEW).read_text(encoding="utf-8"))
    except OSError:
        return None, f"no {VIEW} was handed in"
    except (SyntaxError, ValueError) as exc:
        return None, f"{VIEW} could not be read: {type(exc).__name__}: {exc}"
    _, _, _, mapping, key, position = ENTRIES[kind]
    names = [mapping] + [n for n in _menus_passed(tree, position) if n != mapping]
    for menu in names:
        value = _menu_entry(tree, menu, key)
        if value is not None:
            return _import_named(tree, value)
    return None, f"no entry {key!r} in its `{'`, `'.join(names)}` menu"


def _menus_passed(tree, position):
    """Names of the dicts game_view.py indexes in its ``GameView(x[g], y[s])`` calls."""
    return [node.args[position].value.id for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "GameView" and len(node.args) > position
            and isinstance(node.args[position], ast.Subscript)
            and isinstance(node.args[position].value, ast.Name)]


def _menu_entry(tree, mapping, key):
    """The expression bound last in the module to ``mapping[key]`` (dict display or item)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            continue
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
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
            bound.update({a.asname or a.name: (a.name, "") for a in node.names})
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
