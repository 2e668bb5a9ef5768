"""The pack's driver operations, called directly on the reference and on sample submissions."""

from __future__ import annotations

import json

import pytest
from game_of_nim_harness import (
    HANDOUT_TRANSCRIPT,
    SUBMISSIONS,
    TEMPLATES,
    NimEnv,
    install,
    scripted_run,
)

HANDOUT_TYPED = ["(0,6)", "(3,1)", "(2,2)", "(1,1)"]


def sample(monkeypatch: pytest.MonkeyPatch, name: str) -> NimEnv:
    return install(monkeypatch, SUBMISSIONS / name / "game_of_nim.py")


@pytest.fixture
def ref(monkeypatch: pytest.MonkeyPatch) -> NimEnv:
    return install(monkeypatch)


def test_operations_return_plain_json_data(ref: NimEnv) -> None:
    d = ref.driver
    values = [
        d.initial([0, 5, 3, 1]),
        d.play([2, 1], [[0, 1], [0, 1]]),
        d.terminal([0, 1], [[1, 1]]),
        d.utilities([1], [[0, 1]]),
        d.choose([2, 1], []),
        d.move_values([2, 1], []),
        d.replay([1], ["(0,1)"]),
    ]
    assert json.loads(json.dumps(values, allow_nan=False)) == values


def test_initial_reports_moves_as_pairs(ref: NimEnv) -> None:
    assert ref.driver.initial([0, 5, 3, 1]) == {
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
    assert not any(s["input_mutated"] or s["same_object"] for s in out["steps"])


def test_play_detects_a_result_that_changes_its_input(monkeypatch: pytest.MonkeyPatch) -> None:
    step = sample(monkeypatch, "mutates_board").driver.play([2, 1], [[0, 2]])["steps"][0]
    assert step["input_mutated"] is True
    assert (step["input_before"], step["input_after"]) == ([2, 1], [0, 1])


def test_terminal_and_utilities_follow_the_rule(ref: NimEnv) -> None:
    d = ref.driver
    assert d.terminal([0, 3, 0], []) is False
    assert d.terminal([0, 3, 0], [[1, 3]]) is True
    misere = d.utilities([0, 3, 0], [[1, 3]])  # MAX took the last object
    assert misere == {
        "labels": ["MAX", "MIN"],
        "to_move": "MIN",
        "values": [["MAX", -1], ["MIN", 1]],
    }
    assert d.utilities([0, 3, 0], [[1, 3]], "normal")["values"] == [["MAX", 1], ["MIN", -1]]


@pytest.mark.parametrize(("rule", "move"), [("misere", [0, 2]), ("normal", [0, 1])])
def test_choose_is_the_rule_probe(ref: NimEnv, rule: str, move: list) -> None:
    assert ref.driver.choose([2, 1], [], rule) == move
    values = ref.driver.move_values([2, 1], [], rule)
    assert [m for m, _ in values] == [[0, 1], [0, 2], [1, 1]]
    assert [m for m, value in values if value == 1] == [move]  # the only winning move


def test_replay_reproduces_the_handout_transcript(ref: NimEnv) -> None:
    out = ref.driver.replay([7, 5, 3, 1], HANDOUT_TYPED)
    assert out["error"] is None and out["stray_output"] == ""
    assert out["transcript"].split() == HANDOUT_TRANSCRIPT.split()
    assert out["transcript"].endswith("board: [0, 0, 0, 0]\nMAX won the game\n")


def test_replay_prints_what_the_real_main_program_prints(
    ref: NimEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    typed = ["(2,3)", "(3,1)"]  # the human takes the last object and loses
    _, real = scripted_run(monkeypatch, typed, ref.play.main, [0, 2, 3, 1])
    assert ref.driver.replay([0, 2, 3, 1], typed)["transcript"] == real


def test_replay_stops_when_the_script_runs_out(ref: NimEnv) -> None:
    out = ref.driver.replay([7, 5, 3, 1], HANDOUT_TYPED[:1])
    assert out["error"] == "the scripted player has no more moves"
    assert out["transcript"].endswith("Your move? ")


def test_rule_reaches_only_a_constructor_that_takes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # The correct misere sample has no rule parameter: asking for normal play changes nothing.
    student = sample(monkeypatch, "correct_misere").driver
    assert student.choose([2, 1], [], "normal") == [0, 2]
    with pytest.raises(ValueError, match="unknown rule"):
        student.initial([1], "last-wins")


def test_other_constructor_name_and_labels_are_tolerated(monkeypatch: pytest.MonkeyPatch) -> None:
    d = sample(monkeypatch, "other_names").driver
    assert d.initial([0, 1])["to_move"] == "P1"
    out = d.utilities([0, 3, 0], [[1, 3]])
    assert out == {"labels": ["P1", "P2"], "to_move": "P2", "values": [["P1", -1], ["P2", 1]]}
    assert d.replay([7, 5, 3, 1], HANDOUT_TYPED)["transcript"].split() == HANDOUT_TRANSCRIPT.split()


def test_moves_as_lists_are_reported_and_normalised(monkeypatch: pytest.MonkeyPatch) -> None:
    d = sample(monkeypatch, "list_moves").driver
    out = d.initial([0, 2])
    assert out["tuple_moves"] is False and out["moves"] == [[1, 1], [1, 2]]
    transcript = d.replay([7, 5, 3, 1], HANDOUT_TYPED)["transcript"]
    assert transcript.split() == HANDOUT_TRANSCRIPT.split()


def test_printing_methods_do_not_disturb_the_transcript(monkeypatch: pytest.MonkeyPatch) -> None:
    out = sample(monkeypatch, "chatty_edited_games").driver.replay([7, 5, 3, 1], HANDOUT_TYPED)
    assert out["transcript"].split() == HANDOUT_TRANSCRIPT.split()
    assert out["stray_output"].startswith("making the game with [7, 5, 3, 1]")


def test_labels_without_a_turn_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    out = sample(monkeypatch, "no_turn_switch").driver.utilities([1], [[0, 1]])
    assert out["labels"] == ["MAX", "MAX"]
    assert [name for name, _ in out["values"]] == ["MAX", "MIN"]


def test_errors_in_student_code_propagate(monkeypatch: pytest.MonkeyPatch) -> None:
    crash = sample(monkeypatch, "crash_in_result").driver
    assert crash.initial([1, 2])["moves"] == [[0, 1], [1, 1], [1, 2]]
    with pytest.raises(TypeError):
        crash.play([1, 2], [[0, 1]])
    template = install(monkeypatch, TEMPLATES / "game_of_nim.py").driver
    with pytest.raises(NotImplementedError):
        template.initial([1])


def test_plain_converts_unknown_objects(ref: NimEnv) -> None:
    plain = ref.driver.plain
    assert plain((1, [2, (3,)])) == [1, [2, [3]]]
    assert plain({1: 2}) == "{1: 2}"
    assert plain(float("inf")) == "inf"
    assert plain(True) is True
