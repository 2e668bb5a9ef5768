"""How the tippy driver reaches the student's classes: pinned names first, then game_view.py's
menus (read with ast, never run), then the one handed-in module holding the pinned name or the
one subclass of the handout's base, else an EntryNotFound that names what was looked for (the
pack's [entries], resolved by graders/sandbox/harness_entries.py)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from graders.pack import get_pack

PACK = get_pack("tippy")
SAMPLES = PACK.fixtures_dir / "submissions"
RENAMED = SAMPLES / "renamed_classes_helpers"
UNHOOKED = SAMPLES / "unhooked_renamed"
MENUS = """
if __name__ == '__main__':
    from subtract_square_state import SubtractSquareState
    from strategy_random import StrategyRandom
{imports}
{menus}
    g = ''
    while g not in {games}:
        g = input('s or t: ')
    s = ''
    while s not in {plans}:
        s = input('r or m: ')
    GameView({games}[g], {plans}[s]).play()
"""


def view_with(imports: str, menus: str, games="game_state", plans="strategy") -> dict[str, str]:
    """A game_view.py: the starter's GameView with the given __main__ lines."""
    starter = (PACK.reference_dir / "game_view.py").read_text()
    body = starter[:starter.index("if __name__ == '__main__':")]
    return {"game_view.py": body + MENUS.format(imports=imports, menus=menus, games=games,
                                                plans=plans)}


def reference(*files: str) -> dict[str, str]:
    """The named reference files, to copy over a sample (a mix)."""
    return {name: (PACK.reference_dir / name).read_text() for name in files}


def resolve(kind: str) -> type:
    """The class the loaded driver's declared entry ``kind`` reaches."""
    return importlib.import_module("grader_driver")._entry(kind)


def names() -> tuple[str, str]:
    state, minimax = resolve("state"), resolve("minimax")
    return (f"{state.__module__}.{state.__name__}", f"{minimax.__module__}.{minimax.__name__}")


def test_the_pinned_names_come_first(load_driver):
    other = ("from tippy_game_state import TippyGameState\n\n\n"
             "class Other(TippyGameState):\n    pass\n")
    load_driver(PACK.reference_dir, files={"other.py": other, **view_with(
        "    from other import Other\n    from strategy_random import StrategyRandom as Plan\n",
        "    game_state = {'s': SubtractSquareState, 't': Other}\n"
        "    strategy = {'r': StrategyRandom, 'm': Plan}\n")})
    assert names() == ("tippy_game_state.TippyGameState", "strategy_minimax.StrategyMinimax")


def test_classes_named_otherwise_in_helpers_are_reached_through_the_menus(load_driver):
    driver = load_driver(RENAMED)
    # The pinned modules hold the starter's unwritten stubs: they are passed over.
    assert names() == ("tippy_state.TippyState", "minimax_strategy.MinimaxStrategy")
    assert driver.play(3, [[0, 0], [1, 1]])["stopped"] is None
    assert driver.minimax_subtract_square(13) == 1
    view = driver.run_game_view(["t", "m", ""])
    assert view["error"] is None and view["tippy_moves"] > 0 and view["minimax_calls"] > 0


def test_a_mixed_workspace_plays_the_students_menu_strategy_on_the_reference_game(load_driver):
    driver = load_driver(RENAMED, files=reference("tippy_game_state.py", "tippy_move.py"))
    assert names() == ("tippy_game_state.TippyGameState", "minimax_strategy.MinimaxStrategy")
    assert driver.minimax_move(3, [[0, 0], [1, 1], [0, 1], [2, 2]])["why"] is None


def test_the_last_step_finds_the_one_subclass_of_the_handouts_base(load_driver):
    # Named otherwise and never wired into game_view.py: "a subclass of GameState / Strategy".
    driver = load_driver(UNHOOKED)
    assert names() == ("tippy_game_state.TippyState", "strategy_minimax.MinimaxStrategy")
    assert driver.play(3, [[0, 0], [1, 1]])["stopped"] is None


def test_the_last_step_finds_the_pinned_name_in_a_module_of_another_name(load_driver):
    files = {**reference("strategy_minimax.py", "tippy_move.py"),
             "tippy_square_state.py": (PACK.reference_dir / "tippy_game_state.py").read_text(),
             "game_view.py": PACK.template_text("game_view.py")}
    load_driver(files=files)
    assert names() == ("tippy_square_state.TippyGameState", "strategy_minimax.StrategyMinimax")


def test_a_class_reached_no_way_is_not_found_naming_what_was_looked_for(load_driver):
    driver = load_driver(UNHOOKED, files={"boards.py": (
        "from game_state import GameState\nfrom strategy import Strategy\n\n\n"
        "class Board(GameState):\n    pass\n\n\nclass Plan(Strategy):\n    pass\n")})
    with pytest.raises(LookupError) as state:
        driver.play(3, [])
    with pytest.raises(LookupError) as minimax:
        driver.minimax_subtract_square(13)
    view = driver.run_game_view(["t", "m", ""])
    assert type(state.value).__name__ == "EntryNotFound"
    assert str(state.value) == (
        "the tippy state class was not found: looked for `TippyGameState` in "
        "tippy_game_state.py (tippy_game_state.py defines no `TippyGameState`), then for "
        "`game_state['t']` in game_view.py's menu (no entry 't' in its `game_state` menu), "
        "then in every module handed in (several: `Board` in boards.py, `TippyState` in "
        "tippy_game_state.py): the handout says 'Implement class TippyGameState, a subclass of "
        "GameState, including overriding all unimplemented methods from the superclass.'")
    assert "`StrategyMinimax` in strategy_minimax.py" in str(minimax.value)
    assert "`strategy['m']`" in str(minimax.value)
    assert view["tippy_moves"] == 0 and "more than 60 questions" in view["error"]


def test_menus_under_other_names_module_attributes_and_item_assignments(load_driver):
    load_driver(RENAMED, files=view_with(
        "    import tippy_state as ts\n    import minimax_strategy\n",
        "    games = {'s': SubtractSquareState}\n    games['t'] = ts.TippyState\n"
        "    plans = {'r': StrategyRandom, 'm': minimax_strategy.MinimaxStrategy}\n",
        games="games", plans="plans"))
    assert names() == ("tippy_state.TippyState", "minimax_strategy.MinimaxStrategy")


def test_what_the_menu_names_but_cannot_be_imported_is_said(load_driver):
    load_driver(UNHOOKED, files={
        "strategy_minimax.py": "PLANS = []\n",  # no strategy class at all
        **view_with("    from tippy_game_state import TippyState\n"
                    "    from gone import MinimaxStrategy\n",
                    "    game_state = {'s': SubtractSquareState, 't': TippyState}\n"
                    "    strategy = {'r': StrategyRandom, 'm': lambda: None}\n")})
    assert resolve("state").__name__ == "TippyState"
    with pytest.raises(LookupError, match=r"it names `lambda: None`, which game_view.py "
                       "does not import from a module"):
        resolve("minimax")
    Path("game_view.py").write_text("if True:\nprint(1)\n")  # in the working folder
    with pytest.raises(LookupError, match="game_view.py could not be read: IndentationError"):
        resolve("minimax")


def test_the_students_own_import_error_is_shown_when_no_menu_helps(load_driver):
    load_driver(UNHOOKED, files={"strategy_minimax.py": "from nowhere import Strategy\n"})
    with pytest.raises(ModuleNotFoundError, match="nowhere"):
        resolve("minimax")


def test_a_name_that_is_not_a_class_is_passed_over(load_driver):
    load_driver(UNHOOKED, files={
        "strategy_minimax.py": "def StrategyMinimax():\n    pass\n",
        **view_with("    from strategy_minimax import StrategyMinimax\n",
                    "    game_state = {'s': SubtractSquareState}\n"
                    "    strategy = {'r': StrategyRandom, 'm': StrategyMinimax}\n")})
    with pytest.raises(LookupError, match=(
            r"in strategy_minimax.py \(it is not a class: function\), then for `strategy\['m'\]` "
            r"in game_view.py's menu \(it is not a class: function\)")):
        resolve("minimax")
