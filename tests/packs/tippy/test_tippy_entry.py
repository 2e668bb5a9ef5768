"""How the tippy driver reaches the student's classes: pinned names first, then game_view.py's
menus (read with ast, never run), then the one handed-in module holding the pinned name or the
one subclass of the handout's base, else a ClassNotFound that names what was looked for."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest
from tippy_testkit import REFERENCE, ROOT, driver_on

SAMPLES = ROOT / "fixtures" / "tippy" / "submissions"
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


def view_with(folder: Path, imports: str, menus: str, games="game_state", plans="strategy"):
    """Give folder a game_view.py: the starter's GameView with the given __main__ lines."""
    starter = (REFERENCE / "game_view.py").read_text()
    body = starter[:starter.index("if __name__ == '__main__':")]
    (folder / "game_view.py").write_text(body + MENUS.format(
        imports=imports, menus=menus, games=games, plans=plans))


@contextmanager
def driver_in(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The driver on folder, run from it (game_view.py is read from the working folder); the
    folder's own helper modules are dropped from sys.modules afterwards."""
    monkeypatch.chdir(folder)
    before = set(sys.modules)
    try:
        with driver_on(folder) as driver:
            yield driver
    finally:
        for name in set(sys.modules) - before:
            if str(folder) in str(getattr(sys.modules[name], "__file__", "") or ""):
                del sys.modules[name]


def copy_of(sample: Path, tmp: Path, *reference: str) -> Path:
    """A copy of sample in tmp, with the named reference files copied over it (a mix)."""
    folder = tmp / sample.name
    shutil.copytree(sample, folder, ignore=shutil.ignore_patterns("expected.json"))
    for name in reference:
        shutil.copy(REFERENCE / name, folder / name)
    return folder


def names(driver: ModuleType) -> tuple[str, str]:
    state, minimax = driver._classes.resolve("state"), driver._classes.resolve("minimax")
    return (f"{state.__module__}.{state.__name__}", f"{minimax.__module__}.{minimax.__name__}")


def test_the_pinned_names_come_first(tmp_path, monkeypatch):
    folder = copy_of(REFERENCE, tmp_path)
    (folder / "other.py").write_text(
        "from tippy_game_state import TippyGameState\n\n\n"
        "class Other(TippyGameState):\n    pass\n")
    view_with(folder, "    from other import Other\n    from strategy_random import "
              "StrategyRandom as Plan\n",
              "    game_state = {'s': SubtractSquareState, 't': Other}\n"
              "    strategy = {'r': StrategyRandom, 'm': Plan}\n")
    with driver_in(folder, monkeypatch) as driver:
        assert names(driver) == ("tippy_game_state.TippyGameState",
                                 "strategy_minimax.StrategyMinimax")


def test_classes_named_otherwise_in_helpers_are_reached_through_the_menus(tmp_path, monkeypatch):
    with driver_in(copy_of(RENAMED, tmp_path), monkeypatch) as driver:
        # The pinned modules hold the starter's unwritten stubs: they are passed over.
        assert names(driver) == ("tippy_state.TippyState", "minimax_strategy.MinimaxStrategy")
        assert driver.play(3, [[0, 0], [1, 1]])["stopped"] is None
        assert driver.minimax_subtract_square(13) == 1
        view = driver.run_game_view(["t", "m", ""])
    assert view["error"] is None and view["tippy_moves"] > 0 and view["minimax_calls"] > 0


def test_a_mixed_workspace_plays_the_students_menu_strategy_on_the_reference_game(
        tmp_path, monkeypatch):
    folder = copy_of(RENAMED, tmp_path, "tippy_game_state.py", "tippy_move.py")
    with driver_in(folder, monkeypatch) as driver:
        assert names(driver) == ("tippy_game_state.TippyGameState",
                                 "minimax_strategy.MinimaxStrategy")
        assert driver.minimax_move(3, [[0, 0], [1, 1], [0, 1], [2, 2]])["why"] is None


def test_the_last_step_finds_the_one_subclass_of_the_handouts_base(tmp_path, monkeypatch):
    # Named otherwise and never wired into game_view.py: "a subclass of GameState / Strategy".
    with driver_in(copy_of(UNHOOKED, tmp_path), monkeypatch) as driver:
        assert names(driver) == ("tippy_game_state.TippyState",
                                 "strategy_minimax.MinimaxStrategy")
        assert driver.play(3, [[0, 0], [1, 1]])["stopped"] is None


def test_the_last_step_finds_the_pinned_name_in_a_module_of_another_name(tmp_path, monkeypatch):
    folder = copy_of(REFERENCE, tmp_path)
    (folder / "tippy_game_state.py").rename(folder / "tippy_square_state.py")
    (folder / "game_view.py").write_text((ROOT / "student_templates" / "tippy" /
                                          "game_view.py").read_text())
    with driver_in(folder, monkeypatch) as driver:
        assert names(driver) == ("tippy_square_state.TippyGameState",
                                 "strategy_minimax.StrategyMinimax")


def test_a_class_reached_no_way_is_not_found_naming_what_was_looked_for(tmp_path, monkeypatch):
    folder = copy_of(UNHOOKED, tmp_path)
    (folder / "boards.py").write_text(
        "from game_state import GameState\nfrom strategy import Strategy\n\n\n"
        "class Board(GameState):\n    pass\n\n\nclass Plan(Strategy):\n    pass\n")
    with driver_in(folder, monkeypatch) as driver:
        with pytest.raises(LookupError) as state:
            driver.play(3, [])
        with pytest.raises(LookupError) as minimax:
            driver.minimax_subtract_square(13)
        view = driver.run_game_view(["t", "m", ""])
    assert type(state.value).__name__ == "ClassNotFound"
    assert str(state.value) == (
        "the tippy state class was not found: looked for `TippyGameState` in "
        "tippy_game_state.py (tippy_game_state.py defines no `TippyGameState`), then for "
        "`game_state['t']` in game_view.py's menu (no entry 't' in its `game_state` menu), "
        "then in every module handed in (several: `Board` in boards.py, `TippyState` in "
        "tippy_game_state.py)")
    assert "`StrategyMinimax` in strategy_minimax.py" in str(minimax.value)
    assert "`strategy['m']`" in str(minimax.value)
    assert view["tippy_moves"] == 0 and "more than 60 questions" in view["error"]


def test_menus_under_other_names_module_attributes_and_item_assignments(tmp_path, monkeypatch):
    folder = copy_of(RENAMED, tmp_path)
    view_with(folder, "    import tippy_state as ts\n    import minimax_strategy\n",
              "    games = {'s': SubtractSquareState}\n    games['t'] = ts.TippyState\n"
              "    plans = {'r': StrategyRandom, 'm': minimax_strategy.MinimaxStrategy}\n",
              games="games", plans="plans")
    with driver_in(folder, monkeypatch) as driver:
        assert names(driver) == ("tippy_state.TippyState", "minimax_strategy.MinimaxStrategy")


def test_what_the_menu_names_but_cannot_be_imported_is_said(tmp_path, monkeypatch):
    folder = copy_of(UNHOOKED, tmp_path)
    (folder / "strategy_minimax.py").write_text("PLANS = []\n")  # no strategy class at all
    view_with(folder, "    from tippy_game_state import TippyState\n"
              "    from gone import MinimaxStrategy\n",
              "    game_state = {'s': SubtractSquareState, 't': TippyState}\n"
              "    strategy = {'r': StrategyRandom, 'm': lambda: None}\n")
    with driver_in(folder, monkeypatch) as driver:
        assert driver._classes.resolve("state").__name__ == "TippyState"
        with pytest.raises(LookupError, match=r"it names `lambda: None`, which game_view.py "
                           "does not import from a module"):
            driver._classes.resolve("minimax")
        (folder / "game_view.py").write_text("if True:\nprint(1)\n")
        with pytest.raises(LookupError, match="game_view.py could not be read: "
                           "IndentationError"):
            driver._classes.resolve("minimax")


def test_the_students_own_import_error_is_shown_when_no_menu_helps(tmp_path, monkeypatch):
    folder = copy_of(UNHOOKED, tmp_path)
    (folder / "strategy_minimax.py").write_text("from nowhere import Strategy\n")
    with driver_in(folder, monkeypatch) as driver, pytest.raises(ModuleNotFoundError,
                                                                 match="nowhere"):
        driver._classes.resolve("minimax")


def test_a_name_that_is_not_a_class_is_passed_over(tmp_path, monkeypatch):
    folder = copy_of(UNHOOKED, tmp_path)
    (folder / "strategy_minimax.py").write_text("def StrategyMinimax():\n    pass\n")
    view_with(folder, "    from strategy_minimax import StrategyMinimax\n",
              "    game_state = {'s': SubtractSquareState}\n"
              "    strategy = {'r': StrategyRandom, 'm': StrategyMinimax}\n")
    with driver_in(folder, monkeypatch) as driver, pytest.raises(LookupError, match=(
            r"in strategy_minimax.py \(it is not a class: function\), then for `strategy\['m'\]` "
            r"in game_view.py's menu \(it is not a class: function\)")):
        driver._classes.resolve("minimax")
