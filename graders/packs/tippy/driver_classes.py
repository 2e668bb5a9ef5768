"""The classes a tippy submission is played with (child side, stdlib only).

Each class is found: 1. by the handout's pinned name in its pinned module, unless that is the
starter's unwritten stub and the menu names another; 2. through game_view.py's menu
(``game_state['t']``, ``strategy['m']``, or the dict it passes to ``GameView``), read with
``ast`` and imported from the module game_view.py imports it from (``harness_kit`` does the
reading); 3. in the one handed-in module that defines the pinned name, else the one class
deriving from the handout's base class (``harness_kit.class_homes``; the starter's own modules
left out). Else ``ClassNotFound``. The parent grades a missing pinned file whose class another
module holds as that module, with the file-name deduction (``[submission] pinned_classes``).
"""

import inspect

import harness_kit as kit

VIEW = "game_view.py"
# kind: (what, pinned module, pinned name, menu, key, position in GameView(state, strategy))
ENTRIES = {
    "state": ("the tippy state class", "tippy_game_state", "TippyGameState", "game_state", "t", 0),
    "minimax": ("the minimax strategy class", "strategy_minimax", "StrategyMinimax",
                "strategy", "m", 1),
}
BASES = {"state": "GameState", "minimax": "Strategy"}  # "a subclass of GameState / Strategy"
STARTER = ("game_state.py", "move.py", "strategy.py", "strategy_random.py",
           "subtract_square_move.py", "subtract_square_state.py", VIEW)
_FOUND = {}


class ClassNotFound(LookupError):
    """A class the grader needs is reachable neither by its pinned name nor through the menu."""


def resolve(kind):
    """The class for kind ('state' or 'minimax'), found once per process."""
    if kind not in _FOUND:
        _FOUND[kind] = _resolve(kind)
    return _FOUND[kind]


def _resolve(kind):
    what, module, name, mapping, key, _ = ENTRIES[kind]
    pinned, pinned_why, error = _a_class(*kit.pinned(module, name))
    if pinned is not None and not kit.unwritten(pinned):
        return pinned
    menu, menu_why, _ = menu_class(kind)
    if menu is not None:
        return menu
    home, home_why = home_class(kind)
    if home is not None or pinned is not None:
        return home or pinned  # the stub fails with its own message
    if error is not None:
        raise error
    raise ClassNotFound(f"{what} was not found: looked for `{name}` in {module}.py "
                        f"({pinned_why}), then for `{mapping}[{key!r}]` in {VIEW}'s menu "
                        f"({menu_why}), then in every module handed in ({home_why})")


def home_class(kind):
    """(the one class a handed-in module defines under the pinned name, else the one deriving
    from the handout's base class, or None; why not)."""
    _, _, name, _, _, _ = ENTRIES[kind]
    base = BASES[kind]
    homes = kit.class_homes(kit.module_sources(skip=STARTER), name, base)
    if len(homes) != 1:
        shown = ", ".join(f"`{cls}` in {file}" for file, cls in homes)
        return None, (f"several: {shown}" if homes else
                      f"none defines `{name}` or a subclass of `{base}`")
    file, cls = homes[0]
    found, why, _ = _a_class(*kit.pinned(file[:-3], cls))
    return found, why


def _a_class(found, why, error=None):
    """(found, why, error), a found object that is not a class turned into a reason."""
    if found is None or inspect.isclass(found):
        return found, why, error
    return None, f"it is not a class: {type(found).__name__}", error


def menu_class(kind):
    """(the class game_view.py's menu names for kind, or None; why not; None)."""
    tree, why = kit.read_tree(VIEW)
    if tree is None:
        return None, why, None
    _, _, _, mapping, key, position = ENTRIES[kind]
    names = [mapping] + [n for n in kit.menus_passed(tree, "GameView", position) if n != mapping]
    for menu in names:
        entry = kit.menu_entry(tree, menu, key)
        if entry is not None:
            return _a_class(*kit.import_entry(tree, entry, VIEW))
    return None, f"no entry {key!r} in its `{'`, `'.join(names)}` menu", None
