"""game_of_nim grader tests for the rules of the game (parent side, plain data only).

The expectations come from the pack's own pure oracle (``oracle.py``, through ``checks.py``),
so the tests that check what the handout states are public (the student pre-check runs them).
Utilities must be exactly +1 or -1 (as the handout says) and are asked from the first player's
side only, where the handout's "+1 if MAX wins, -1 if MIN wins" and the AIMA habit (the value
for ``player``) agree.
No vacuous credit: a property (moves are tuples, the input state is left unchanged, the game
is over or not) earns its share only where the function under test also does its job.
"""

from __future__ import annotations

import pytest

from graders.packs.game_of_nim import checks
from graders.packs.game_of_nim.checks import call, case_id, game_text
from graders.packs.game_of_nim.oracle import board_after, legal_moves
from graders.testing import expect_equal

INITIAL_BOARDS = [[0, 5, 3, 1], [7, 5, 3, 1], [0, 2, 3, 1], [3, 0, 2], [0, 0, 4], [1, 2], [0, 0]]
ORDER_BOARDS = [[0, 2, 3, 1], [0, 5, 3, 1], [7, 5, 3, 1], [2, 0, 3]]
PATHS = [
    ([0, 5, 3, 1], [[1, 3]]),
    ([7, 5, 3, 1], [[0, 1], [0, 6], [1, 3], [3, 1]]),
    ([3, 0, 2], [[2, 2], [0, 1], [0, 2]]),
    ([2, 1], [[0, 2], [1, 1]]),
]
# terminal_test: each case is a position where play goes on and one where it is over, so a
# constant answer earns nothing. The first four "goes on" positions have an empty row.
TERMINAL_CASES = [
    (([0, 3, 0], []), ([0, 0, 0], [])),
    (([0, 5, 3, 1], []), ([0, 5, 3, 1], [[1, 5], [2, 3], [3, 1]])),
    (([3, 0, 0, 2], [[3, 1]]), ([3, 0, 0, 2], [[3, 1], [0, 3], [3, 1]])),
    (([2, 0, 1], [[0, 2]]), ([2, 0, 1], [[0, 2], [2, 1]])),
    (([1, 2], []), ([0, 0], [])),
    (([1, 1], []), ([1, 1], [[0, 1], [1, 1]])),
    (([2, 3], [[1, 1]]), ([2, 3], [[1, 1], [0, 2], [1, 2]])),
    (([4], []), ([0, 0, 0, 0], [])),
]
# Finished games: (board, the moves that empty it). Who took the last object alternates, so the
# first player wins three and loses three.
FINISHED = [
    ([0, 3, 0], [[1, 3]]),
    ([1, 1], [[0, 1], [1, 1]]),
    ([2, 0, 1], [[0, 2], [2, 1]]),
    ([7, 5, 3, 1], [[0, 7], [1, 5], [2, 3], [3, 1]]),
    ([1, 1, 1], [[0, 1], [1, 1], [2, 1]]),
    ([2, 2], [[0, 2], [1, 1], [1, 1]]),
]


@pytest.mark.public
@pytest.mark.parametrize("board", INITIAL_BOARDS, ids=case_id)
def test_initial_state(student, pack, board):
    got = call(student, pack, "initial", board)
    checks.expect_state(got, board, [], "the initial state")


@pytest.mark.public
@pytest.mark.parametrize("board", ORDER_BOARDS, ids=case_id)
def test_move_order(student, pack, board):
    got = call(student, pack, "initial", board)["moves"]
    expect_equal(got, legal_moves(board), what=f"order of the moves of {game_text(board, [])}")


@pytest.mark.public
def test_moves_are_tuples(student, pack):
    board, path = [0, 2, 3, 1], [[2, 1]]
    checks.expect_tuples(call(student, pack, "play", board, path), board, path)


@pytest.mark.public
@pytest.mark.parametrize("case", PATHS, ids=case_id)
def test_result_board(student, pack, case):
    board, path = case
    steps = call(student, pack, "play", board, path)["steps"]
    for index, step in enumerate(steps, start=1):
        checks.expect_state(step, board, path[:index], "what result() returned")


@pytest.mark.public
@pytest.mark.parametrize("case", PATHS, ids=case_id)
def test_turn_switches(student, pack, case):
    checks.expect_alternating(call(student, pack, "play", *case), *case)


@pytest.mark.public
@pytest.mark.parametrize("case", PATHS[:2], ids=case_id)
def test_input_not_mutated(student, pack, case):
    checks.expect_unchanged_input(call(student, pack, "play", *case)["steps"], *case)


@pytest.mark.public
@pytest.mark.parametrize("case", TERMINAL_CASES, ids=case_id)
def test_terminal_test(student, pack, case):
    got, expected = {}, {}
    for (board, path), over in zip(case, (False, True), strict=True):
        where = f"{game_text(board, path)} (board {board_after(board, path)})"
        got[where] = call(student, pack, "terminal", board, path)
        expected[where] = over
    expect_equal(got, expected, what="terminal_test where play goes on and where it is over")


@pytest.mark.public
@pytest.mark.parametrize("case", FINISHED, ids=case_id)
def test_utility(student, pack, case):
    out = call(student, pack, "first_utility", *case)
    checks.expect_utility(out, *case, pack.settings["rule"])
