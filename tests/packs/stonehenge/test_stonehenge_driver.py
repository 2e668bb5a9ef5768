"""The stonehenge driver's operations, called in-process on reference and broken workspaces."""

from __future__ import annotations

import importlib
import json

import pytest
from stonehenge_boards import SIDE_2, SIDE_2_AGDEF

from graders.pack import get_pack
from graders.packs.stonehenge import oracle

PACK = get_pack("stonehenge")
REFERENCE, SAMPLES = PACK.reference_dir, PACK.fixtures_dir / "submissions"


def plain(value):
    """Everything an operation returns must survive JSON unchanged."""
    assert json.loads(json.dumps(value)) == value
    return value


def test_interface(driver):
    info = plain(driver.interface())
    assert info["games"] == ["h", "s"] and info["strategies"] == ["i", "mi", "mr"]
    assert info["h_is_class"]
    assert info["callable"] == {"i": True, "mr": True, "mi": True}


def test_new_game_counts_input_calls(driver):
    result = plain(driver.new_game(2, False))
    assert len(result["prompts"]) == 1
    assert result["board"] == SIDE_2 and result["player"] == "p2"


def test_trace_matches_oracle(driver):
    snaps = plain(driver.trace(2, True, list("AGDEF")))
    positions = oracle.trace(2, True, "AGDEF")
    assert [s["board"] for s in snaps] == [oracle.render(p) for p in positions]
    assert snaps[-1]["board"] == SIDE_2_AGDEF
    assert [s["moves"] for s in snaps] == [oracle.moves(p) for p in positions]
    assert [s["over"] for s in snaps] == [False] * 5 + [True]
    assert snaps[-1]["winners"] == {"p1": True, "p2": False}
    assert [s["rough"] for s in snaps] == [oracle.rough_outcome(p) for p in positions]
    assert snaps[0]["player"] == "p1" and snaps[1]["player"] == "p2"


def test_trace_fields_and_illegal_move(driver):
    snaps = plain(driver.trace(1, True, ["A", "B"], ["board"]))
    assert list(snaps[0]) == ["board"]
    assert "error" in snaps[-1] and "ValueError" in snaps[-1]["error"]


def test_make_move_effect(driver):
    result = plain(driver.make_move_effect(2, True, ["A"], "G"))
    assert result["state_unchanged"] and result["current_state_same_object"]
    assert result["new_object"]
    assert result["board_after"] == oracle.render(oracle.replay(2, True, "AG"))


def test_a_missing_repr_costs_only_the_repr(stonehenge):
    """The starter's ``__repr__`` (NotImplementedError) left in place: whether make_move or a
    strategy left the state alone is still told, from the board and the player."""
    source = (PACK.reference_dir / "stonehenge.py").read_text()
    start = source.index("    def __repr__(self)")
    end = source.index("\n    def ", start + 1) + 1
    driver = stonehenge(PACK.reference_dir, edits={"stonehenge.py": [(source[start:end], "")]})
    result = plain(driver.make_move_effect(2, True, ["A"], "G"))
    assert result["state_unchanged"] and result["new_object"]
    assert plain(driver.strategy("mr", 3, False, list("KACBFEGDI")))["state_kept"]
    mutating = stonehenge(PACK.reference_dir, edits={"stonehenge.py": [
        (source[start:end], ""),
        ("        cells = self.cells[:index] + [mark] + self.cells[index + 1:]",
         "        self.cells[index] = mark\n        cells = self.cells")]})
    assert not plain(mutating.make_move_effect(2, True, ["A"], "G"))["state_unchanged"]


def test_moves_check(driver):
    assert plain(driver.moves_check(1, True, [], ["A", "D", "a b"])) == {
        "A": True, "D": False, "a b": False}


@pytest.mark.parametrize("key", ["mr", "mi"])
def test_strategy(driver, key):
    result = plain(driver.strategy(key, 3, False, list("KACBFEGDI"), watch_recursion=True))
    assert result["move"] == "H" and result["state_kept"]
    assert (result["recursion"] is None) == (key == "mi")
    assert plain(driver.strategy(key, total=18))["move"] in {"1", "16"}


RECURSIVE_ITERATIVE = '''
from strategy_base import *


def helper(game, state):
    if game.is_over(state):
        return -1
    return max(-helper(game, state.make_move(m)) for m in state.get_possible_moves())


def iterative_minimax_strategy(game):
    state = game.current_state
    return max(state.get_possible_moves(),
               key=lambda m: -helper(game, state.make_move(m)))
'''


def test_recursion_is_caught_at_run_time(stonehenge):
    base = (REFERENCE / "strategy.py").read_text()
    module = stonehenge(REFERENCE, files={"strategy_base.py": base,
                                          "strategy.py": RECURSIVE_ITERATIVE})
    result = module.strategy("mi", 2, True, list("AFD"), watch_recursion=True)
    assert result["recursion"] == "helper" and result["move"] == "E"


def test_bare_template_fails_per_call(stonehenge):
    module = stonehenge()
    assert "h" not in module.interface()["games"]
    with pytest.raises(NotImplementedError):
        module.new_game(2)
    with pytest.raises(LookupError, match=r"the recursive minimax strategy was not "
                       r"found: looked for `usable_strategies\['mr'\]` in game_interface"):
        module.strategy("mr", 2)


def test_mixed_workspace_aliases_reference_classes(stonehenge):
    module = stonehenge(REFERENCE, edits={"game_interface.py": [(
        "from stonehenge import StonehengeGame",
        "from stonehenge import StoneHenge as StonehengeGame")]})
    assert module.strategy("mi", 2, True, list("AFD"), mixed=True)["move"] == "E"


def test_a_failing_field_spoils_only_itself(stonehenge):
    broken = (REFERENCE / "stonehenge.py").read_text().replace(
        "def rough_outcome(self) -> float:",
        "def rough_outcome(self) -> float:\n        raise RuntimeError('boom')\n\n"
        "    def _unused(self) -> float:")
    snap = stonehenge(REFERENCE, files={"stonehenge.py": broken}).trace(1, True, ["A"])[-1]
    line = broken.splitlines().index("        raise RuntimeError('boom')") + 1
    assert snap["rough"] == {"error": f"RuntimeError: boom (stonehenge.py, line {line})"}
    assert snap["over"] is True


def test_subtract_square_in_one_call(driver):
    assert plain(driver.subtract_square("mr", [4, 18, 13])) == ["4", "1", "1"]
    assert driver.subtract_square("mi", [14], mixed=True)[0] in {"4", "9"}


def test_a_renamed_game_in_a_helper_module_is_reached_through_the_interface(stonehenge):
    module = stonehenge(SAMPLES / "renamed_game_module")
    assert module.interface()["h_is_class"]
    assert module.trace(2, True, list("AGDEF"), ["board"])[-1]["board"].split() == \
        SIDE_2_AGDEF.split()
    assert module.strategy("mi", 2, True, list("AFD"))["move"] == "E"


def test_the_game_is_read_statically_when_the_interface_cannot_import(stonehenge):
    """The instructor's strategy.py over a student whose interface imports strategies the
    instructor's file does not have: the student's game is still found (from sh_game)."""
    module = stonehenge(SAMPLES / "renamed_game_module",
                        files={"strategy.py": (REFERENCE / "strategy.py").read_text()})
    with pytest.raises(ImportError):
        module.interface()
    got = module.strategy("mr", 3, False, list("KACBFEGDI"), instructor=True)
    assert got["move"] == "H"


def test_the_students_strategy_plays_the_instructors_game_whatever_it_imports(stonehenge):
    """The instructor's stonehenge.py over a student whose helper module imports a state class
    the instructor's file does not define: aliased, and the instructor's game is played."""
    module = stonehenge(SAMPLES / "renamed_game_module",
                        files={"stonehenge.py": (REFERENCE / "stonehenge.py").read_text()})
    assert module.strategy("mi", 2, True, list("AFD"), mixed=True)["move"] == "E"
    game = importlib.import_module("stonehenge")
    assert game.StoneHengeState is game.StonehengeState


def test_a_game_plays_to_its_end_through_the_starters_loop(driver, capsys):
    got = plain(driver.play_interface(2, True, list("AGDEF")))
    assert got == {"played": list("AGDEF"), "left": [], "over": True}
    assert capsys.readouterr().out.strip().splitlines()[-1] == "Player 1 is the winner!"


def test_a_game_that_does_not_end_is_caught_in_the_loop(stonehenge):
    module = stonehenge(REFERENCE, edits={"stonehenge.py": [
        ('return state.get_winner() != ""', "return False")]})
    with pytest.raises(RuntimeError, match="after A G D E F"):
        module.play_interface(2, True, list("AGDEF"))
