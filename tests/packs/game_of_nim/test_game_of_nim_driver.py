"""The pack's driver operations, called directly on the reference and on sample submissions."""

from __future__ import annotations

import json
from types import SimpleNamespace as NimEnv

import pytest

from graders.pack import get_pack
from tests.in_process import terminal

PACK = get_pack("game_of_nim")
SUBMISSIONS = PACK.fixtures_dir / "submissions"
HANDOUT_TYPED = ["(0,6)", "(3,1)", "(2,2)", "(1,1)"]


@pytest.fixture
def sample(nim):
    return lambda name: nim(SUBMISSIONS / name)


@pytest.fixture
def ref(env: NimEnv) -> NimEnv:
    return env


def test_operations_return_plain_json_data(ref: NimEnv) -> None:
    d = ref.driver
    values = [
        d.play([0, 5, 3, 1], [])["initial"],
        d.play([2, 1], [[0, 1], [0, 1]]),
        d.terminal([0, 1], [[1, 1]]),
        d.first_utility([1], [[0, 1]]),
        d.choose([2, 1], []),
        d.move_values([2, 1], []),
        d.replay([1], ["(0,1)"]),
        d.compat([2, 1]),
    ]
    assert d.compat([0])["labels"] == ["MAX", None]  # no move: no second player to name
    assert json.loads(json.dumps(values, allow_nan=False)) == values


def test_initial_reports_moves_as_pairs(ref: NimEnv) -> None:
    assert ref.driver.play([0, 5, 3, 1], [])["initial"] == {
        "to_move": "MAX",
        "board": [0, 5, 3, 1],
        "tuple_moves": True,
        "moves": [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [2, 1], [2, 2], [2, 3], [3, 1]],
    }


def test_play_reports_each_step_and_no_mutation(ref: NimEnv) -> None:
    out = ref.driver.play([2, 1], [[0, 1], [1, 1], [0, 1]])
    assert [s["board"] for s in out["steps"]] == [[1, 1], [1, 0], [0, 0]]
    assert [s["to_move"] for s in out["steps"]] == ["MIN", "MAX", "MIN"]
    assert out["steps"][-1]["moves"] == []
    assert not any(s["input_mutated"] for s in out["steps"])


def test_play_detects_a_result_that_changes_its_input(sample) -> None:
    step = sample("mutates_board").driver.play([2, 1], [[0, 2]])["steps"][0]
    assert step["input_mutated"] is True
    assert (step["input_before"], step["input_after"]) == ([2, 1], [0, 1])


def test_terminal_and_first_utility_follow_the_rule(ref: NimEnv) -> None:
    d = ref.driver
    assert d.terminal([0, 3, 0], []) is False
    assert d.terminal([0, 3, 0], [[1, 3]]) is True
    # MAX took the last object: MAX loses under misere, wins under normal play
    assert d.first_utility([0, 3, 0], [[1, 3]]) == {"player": "MAX", "value": -1}
    assert d.first_utility([0, 3, 0], [[1, 3]], "normal") == {"player": "MAX", "value": 1}


@pytest.mark.parametrize(
    "name", ["reference", "utility_inverted_min", "utility_literal_max", "utility_for_player"]
)
def test_both_readings_of_utility_agree_for_the_first_player(sample, name: str) -> None:
    d = sample(name).driver
    assert d.first_utility([1, 1], [[0, 1], [1, 1]])["value"] > 0  # MIN took the last one
    assert d.first_utility([1, 1, 1], [[0, 1], [1, 1], [2, 1]])["value"] < 0
    assert d.choose([2, 1], []) == [0, 2]


def test_the_readings_differ_for_the_second_player(sample) -> None:
    # Why the grader never asks the second player: a literal "+1 if MAX wins" and the AIMA
    # value for `player` give opposite answers there, and both follow the handout.
    values = []
    for env in (sample("utility_literal_max"), sample("utility_for_player")):
        game = env.nim.GameOfNim([1, 1])
        state = game.result(game.result(game.initial, (0, 1)), (1, 1))  # MIN took the last
        values.append(game.utility(state, "MIN"))  # object: MAX wins
    assert values == [1, -1]


@pytest.mark.parametrize(("rule", "move"), [("misere", [0, 2]), ("normal", [0, 1])])
def test_choose_is_the_rule_probe(ref: NimEnv, rule: str, move: list) -> None:
    assert ref.driver.choose([2, 1], [], rule) == move
    values = ref.driver.move_values([2, 1], [], rule)
    assert [m for m, _ in values] == [[0, 1], [0, 2], [1, 1]]
    assert [m for m, value in values if value == 1] == [move]  # the only winning move


def test_replay_reproduces_the_handout_transcript(ref: NimEnv, handout_words) -> None:
    out = ref.driver.replay([7, 5, 3, 1], HANDOUT_TYPED)
    assert out["error"] is None and out["stray_output"] == ""
    assert out["transcript"].split() == handout_words
    assert out["transcript"].endswith("board: [0, 0, 0, 0]\nMAX won the game\n")
    assert out["displayed"] == "board: [7, 5, 3, 1]\n"  # the class's own display()


def test_replay_reports_a_display_that_prints_nothing_or_fails(
    ref: NimEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    cls = type(ref.driver.new_game([1]))
    monkeypatch.setattr(cls, "display", lambda self, state: None)
    assert ref.driver.replay([1], ["(0,1)"])["displayed"] == ""
    monkeypatch.setattr(cls, "display", lambda self, state: 1 / 0)
    assert ref.driver.replay([1], ["(0,1)"])["displayed"] is None


def test_replay_prints_what_the_real_main_program_prints(ref: NimEnv) -> None:
    typed = ["(2,3)", "(3,1)"]  # the human takes the last object and loses
    _, real = terminal(typed, ref.play.main, [0, 2, 3, 1])
    assert ref.driver.replay([0, 2, 3, 1], typed)["transcript"] == real


def test_replay_stops_when_the_script_runs_out(ref: NimEnv) -> None:
    out = ref.driver.replay([7, 5, 3, 1], HANDOUT_TYPED[:1])
    assert out["error"] == "the script of typed answers is used up"
    assert out["transcript"].endswith("Your move? ")


def test_rule_reaches_only_a_constructor_that_takes_it(sample) -> None:
    # The correct misere sample has no rule parameter: asking for normal play changes nothing.
    student = sample("correct_misere").driver
    assert student.choose([2, 1], [], "normal") == [0, 2]
    with pytest.raises(ValueError, match="unknown rule"):
        student.play([1], [], "last-wins")["initial"]


def test_other_constructor_name_and_labels_are_tolerated(sample, handout_words) -> None:
    d = sample("other_names").driver
    assert d.play([0, 1], [])["initial"]["to_move"] == "P1"
    assert d.first_utility([0, 3, 0], [[1, 3]]) == {"player": "P1", "value": -1}
    assert d.compat([0, 3, 0])["labels"] == ["P1", "P2"]
    assert d.replay([7, 5, 3, 1], HANDOUT_TYPED)["transcript"].split() == handout_words


def test_moves_as_lists_are_reported_and_normalised(sample, handout_words) -> None:
    d = sample("list_moves").driver
    out = d.play([0, 2], [])["initial"]
    assert out["tuple_moves"] is False and out["moves"] == [[1, 1], [1, 2]]
    transcript = d.replay([7, 5, 3, 1], HANDOUT_TYPED)["transcript"]
    assert transcript.split() == handout_words


def test_printing_methods_do_not_disturb_the_transcript(sample, handout_words) -> None:
    out = sample("chatty_edited_games").driver.replay([7, 5, 3, 1], HANDOUT_TYPED)
    assert out["transcript"].split() == handout_words
    assert out["stray_output"].startswith("making the game with [7, 5, 3, 1]")


def test_labels_without_a_turn_switch(sample) -> None:
    d = sample("no_turn_switch").driver
    assert d.compat([1])["labels"] == ["MAX", "MAX"]
    assert d.first_utility([1], [[0, 1]]) == {"player": "MAX", "value": 1}  # MAX took it: wrong


def test_a_class_under_another_name_is_reached_through_game_of_nim(
    sample, handout_words
) -> None:
    d = sample("class_in_helper").driver
    assert d.play([0, 2], [])["initial"]["moves"] == [[1, 1], [1, 2]]
    assert d.replay([7, 5, 3, 1], HANDOUT_TYPED)["transcript"].split() == handout_words


def test_a_missing_class_names_what_was_looked_for(load_driver) -> None:
    d = load_driver(SUBMISSIONS / "correct_misere", edits={"game_of_nim.py": [
        ("class GameOfNim(Game)", "class NimGame(Game)")]})
    with pytest.raises(LookupError, match=r"`from game_of_nim import GameOfNim`\) was not "
                       r"found: .* defines no `GameOfNim`; it has NimGame\): the handout says"):
        d.play([1], [])["initial"]


def test_a_game_that_never_ends_stops_after_one_move_per_object(sample) -> None:
    out = sample("do_nothing").driver.replay([7, 5, 3, 1], HANDOUT_TYPED)
    assert out["error"] == "the game did not end after 16 moves"
    assert out["transcript"].count("no legal moves") == 8


def test_errors_in_student_code_propagate(sample, load_driver) -> None:
    crash = sample("crash_in_result").driver
    assert crash.play([1, 2], [])["initial"]["moves"] == [[0, 1], [1, 1], [1, 2]]
    with pytest.raises(TypeError):
        crash.play([1, 2], [[0, 1]])
    template = load_driver(PACK.templates_dir)
    with pytest.raises(NotImplementedError):
        template.play([1], [])["initial"]


def test_plain_converts_unknown_objects(ref: NimEnv) -> None:
    plain = ref.driver.plain
    assert plain((1, [2, (3,)])) == [1, [2, [3]]]
    assert plain({1: (2,)}) == {"1": [2]}
    assert plain(object).startswith("<class")
    assert plain(float("inf")) == "inf"
    assert plain(True) is True


def test_a_method_that_raises_costs_only_its_own_field(load_driver) -> None:
    # actions() raises once a move has been made: the turn and the board are still read.
    d = load_driver(SUBMISSIONS / "correct_misere", edits={"game_of_nim.py": [
        ("        return state.moves\n",
         "        if sum(state.board) < 3:\n            raise KeyError('no moves')\n"
         "        return state.moves\n")]})
    out = d.play([1, 2], [[1, 1]])
    assert out["initial"]["moves"] == [[0, 1], [1, 1], [1, 2]]
    step = out["steps"][0]
    assert (step["to_move"], step["board"]) == ("MIN", [1, 1])
    assert step["moves"] == step["tuple_moves"] == {
        "error": "KeyError: 'no moves' (game_of_nim.py, line 20)"}
    assert step["input_mutated"] is False
