"""Grader tests for str(state) and game_interface.py (parent side, plain data only).

Boards are compared token by token, as the course's own tests did ("formatted in exactly the
same way" is not required): per line, the markers (`@`, `1`, `2`) and cells (letters, `1`, `2`)
in order; spacing and separators (`-`, `/`, `\\`, `|`, none at all) are not graded. Expected
boards come from the oracle, which draws the spec's layout exactly.
"""

from __future__ import annotations

import pytest

from graders.errors import StudentError
from graders.packs.stonehenge import checks, generate, oracle
from graders.packs.stonehenge.checks import expect_trace, side_id

BOARD = ["board"]


@pytest.mark.public
def test_interface_names_game_and_strategies(student):
    info = student.call("interface")
    assert "h" in info["games"], (
        f"game_interface.playable_games has the keys {info['games']}; add 'h' for your "
        "Stonehenge game class")
    assert info["h_is_class"], "playable_games['h'] must be the game CLASS (not an instance)"
    missing = [key for key in ("mr", "mi") if not info["callable"].get(key)]
    assert not missing, (
        f"game_interface.usable_strategies has no function under {missing} (keys: "
        f"{info['strategies']}); name your recursive minimax 'mr' and iterative one 'mi'")


@pytest.mark.public
def test_interface_plays_a_game_to_its_end(student):
    """The starter's own loop (GameInterface.play) runs the spec's side-2 game: the loop is
    the course's code, so only that the game is playable through it is graded, not what it
    prints."""
    moves = list("AGDEF")
    seen = checks.all_views(2, True, moves)  # asked on every case (see oracle.views)
    try:
        got = student.call("play_interface", 2, True, moves)
    except StudentError as error:  # what the code raised (a timeout or crash is not a rule)
        if checks.ASKED_MORE in error.message:
            checks.expect_slip_ending(student, moves, seen, error, moves, over=False)
        raise
    if not got["over"] or got["left"]:
        failure = AssertionError(
            f"GameInterface(playable_games['h'], ...).play() on side 2 with the moves "
            f"{' '.join(moves)} stopped after {' '.join(got['played']) or 'no move'} with the "
            f"game {'over' if got['over'] else 'not over'}; the game ends after F (p1 holds 5 "
            "of the 9 ley-lines)")
        checks.expect_slip_ending(student, moves, seen, failure, got["played"], got["over"])
        raise failure


@pytest.mark.public
@pytest.mark.parametrize("side", [1, 2, 3, 4, 5])
def test_board_empty(student, side):
    expect_trace(student, side, True, [], BOARD)


@pytest.mark.public
@pytest.mark.parametrize("move", ["A", "B", "C"])
def test_board_side_1_first_move(student, move):
    expect_trace(student, 1, True, [move], BOARD)


@pytest.mark.public
def test_board_side_2_spec_game(student):
    expect_trace(student, 2, True, "AGDEF", BOARD)


@pytest.mark.public
def test_board_side_3_spec_position(student):
    expect_trace(student, 3, False, "KACBFEGDI", BOARD)


@pytest.mark.cases(generate.games, seed=2018, count=10, sides=(1, 2, 3, 4, 5), ids=side_id)
def test_board_random_game(student, case):
    expect_trace(student, case["side"], case["p1_starts"], case["moves"], BOARD)


def test_board_markers_of_both_players(student):
    """Every ley-line claimed, on the largest board: each marker must sit in its own place."""
    for game in generate.games(seed=5, count=40, sides=(5,)):
        pos = oracle.replay(5, game["p1_starts"], game["moves"])
        if pos.p1_lines and pos.p2_lines and game["p1_starts"]:
            expect_trace(student, 5, True, game["moves"], BOARD)
            return
    raise LookupError("no side-5 game with lines for both players")  # a pack bug
