"""game_of_nim grader tests for the rules of the game (parent side, plain data only).

The expectations come from the pack's own pure oracle (``generate.py``), so the tests that
check what the handout states are public (the student pre-check runs them). Player labels are
whatever the submission uses: the first label is whoever moves first, the second whoever
moves next; utilities are judged by sign.
"""

from __future__ import annotations

import pytest

from graders.packs.game_of_nim.generate import (
    board_after,
    first_player_wins,
    legal_moves,
)
from graders.packs.game_of_nim.grading import call, game_text
from graders.testing import Mismatch, expect_equal

INITIAL_BOARDS = [[0, 5, 3, 1], [7, 5, 3, 1], [0, 2, 3, 1], [3, 0, 2], [0, 0, 4], [1, 2], [0, 0]]
ORDER_BOARDS = [[0, 2, 3, 1], [0, 5, 3, 1], [7, 5, 3, 1], [2, 0, 3]]
PATHS = [
    ([0, 5, 3, 1], [[1, 3]]),
    ([7, 5, 3, 1], [[0, 1], [0, 6], [1, 3], [3, 1]]),
    ([3, 0, 2], [[2, 2], [0, 1], [0, 2]]),
    ([2, 1], [[0, 2], [1, 1]]),
]
TERMINAL_CASES = [
    ([0, 0, 0], [], True),
    ([0, 3, 0], [], False),
    ([0, 5, 3, 1], [], False),
    ([3, 0, 0, 2], [[3, 1]], False),
    ([2, 0, 1], [[0, 2]], False),
    ([2, 0, 1], [[0, 2], [2, 1]], True),
    ([1], [[0, 1]], True),
    ([0, 5, 3, 1], [[1, 5], [2, 3], [3, 1]], True),
]
# Finished games: (board, the moves that empty it). Who took the last object alternates.
FINISHED = [
    ([0, 3, 0], [[1, 3]]),
    ([1, 1], [[0, 1], [1, 1]]),
    ([2, 0, 1], [[0, 2], [2, 1]]),
    ([7, 5, 3, 1], [[0, 7], [1, 5], [2, 3], [3, 1]]),
    ([1, 1, 1], [[0, 1], [1, 1], [2, 1]]),
]


def board_id(board: list[int]) -> str:
    return "[" + ",".join(map(str, board)) + "]"


def path_id(case: tuple) -> str:
    return board_id(case[0]) + "+" + str(len(case[1])) + "moves"


# -- the constructor -----------------------------------------------------------------------


@pytest.mark.public
@pytest.mark.parametrize("board", INITIAL_BOARDS, ids=board_id)
def test_initial_state(student, pack, board):
    got = call(student, pack, "initial", board)
    expect_equal(
        {"board": got["board"], "moves (any order)": sorted(got["moves"])},
        {"board": board, "moves (any order)": legal_moves(board)},
        what=f"{game_text(board, [])}.initial",
    )


@pytest.mark.public
@pytest.mark.parametrize("board", ORDER_BOARDS, ids=board_id)
def test_move_order(student, pack, board):
    got = call(student, pack, "initial", board)["moves"]
    expect_equal(got, legal_moves(board), what=f"order of the moves of {game_text(board, [])}")


@pytest.mark.public
def test_moves_are_tuples(student, pack):
    out = call(student, pack, "play", [0, 2, 3, 1], [[2, 1]])
    states = [("the initial state", out["initial"]), ("the state after (2, 1)", out["steps"][0])]
    for where, state in states:
        if not state["tuple_moves"]:
            raise Mismatch(
                f"the moves of {where} are not 2-tuples: the handout asks for moves like "
                f"(1, 2), not [1, 2] (only this criterion is affected)",
                {
                    "kind": "fields",
                    "what": "move type",
                    "rows": [
                        {"field": where, "expected": "tuples", "got": "not tuples", "ok": False}
                    ],
                },
            )


# -- result ----------------------------------------------------------------------------------


@pytest.mark.public
@pytest.mark.parametrize("case", PATHS, ids=path_id)
def test_result_board(student, pack, case):
    board, path = case
    steps = call(student, pack, "play", board, path)["steps"]
    for index, step in enumerate(steps, start=1):
        expected = board_after(board, path[:index])
        expect_equal(
            {"board": step["board"], "moves (any order)": sorted(step["moves"])},
            {"board": expected, "moves (any order)": legal_moves(expected)},
            what=f"result: the state of {game_text(board, path[:index])}",
        )


@pytest.mark.public
@pytest.mark.parametrize("case", PATHS, ids=path_id)
def test_turn_switches(student, pack, case):
    board, path = case
    out = call(student, pack, "play", board, path)
    turns = [out["initial"]["to_move"]] + [step["to_move"] for step in out["steps"]]
    first = turns[0]
    second = next((t for t in turns if t != first), None)
    expected = [first if index % 2 == 0 else second for index in range(len(turns))]
    if second is None or turns != expected:
        raise Mismatch(
            f"{game_text(board, path)}: the player to move should alternate after each move; "
            f"to_move was {turns}",
            {
                "kind": "deepdiff",
                "what": "to_move before and after each move",
                "changes": [],
                "expected": "alternating between two players",
                "actual": turns,
            },
        )


@pytest.mark.public
@pytest.mark.parametrize("case", PATHS[:2], ids=path_id)
def test_input_not_mutated(student, pack, case):
    board, path = case
    steps = call(student, pack, "play", board, path)["steps"]
    for index, step in enumerate(steps):
        if step["input_mutated"]:
            raise Mismatch(
                f"result(state, ({path[index][0]}, {path[index][1]})) changed the state it was "
                f"given: its board went from {step['input_before']} to {step['input_after']}. "
                "Copy the board and return a NEW GameState: the search still needs the old one.",
                {
                    "kind": "fields",
                    "what": "the input state after result()",
                    "rows": [
                        {
                            "field": "board",
                            "expected": step["input_before"],
                            "got": step["input_after"],
                            "ok": False,
                        }
                    ],
                },
            )


# -- terminal_test and utility ---------------------------------------------------------------


@pytest.mark.public
@pytest.mark.parametrize("case", TERMINAL_CASES, ids=path_id)
def test_terminal_test(student, pack, case):
    board, path, over = case
    got = call(student, pack, "terminal", board, path)
    expect_equal(
        got,
        over,
        what=f"terminal_test of {game_text(board, path)} (board {board_after(board, path)})",
    )


@pytest.mark.public
@pytest.mark.parametrize("view", ["winner", "loser"])
@pytest.mark.parametrize("case", FINISHED, ids=path_id)
def test_utility(student, pack, case, view):
    board, path = case
    rule = pack.settings["rule"]
    out = call(student, pack, "utilities", board, path)
    (first, first_value), (second, second_value) = out["values"]
    winner_is_first = first_player_wins(len(path), rule)
    asks_first = winner_is_first == (view == "winner")
    label, value = (first, first_value) if asks_first else (second, second_value)
    last_mover = first if len(path) % 2 else second
    story = (
        f"{game_text(board, path)}: {last_mover!r} took the last object, so under the "
        f"{rule} rule {label!r} is the {view}"
    )
    sign = "positive" if view == "winner" else "negative"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        problem = f"{story}, but utility(state, {label!r}) returned {value!r}, not a number"
    elif (value > 0) if view == "winner" else (value < 0):
        return
    else:
        problem = f"{story}: utility(state, {label!r}) should be {sign}, got {value}"
    raise Mismatch(
        problem,
        {
            "kind": "fields",
            "what": "utility",
            "rows": [
                {"field": f"utility(state, {label!r})", "expected": sign, "got": value, "ok": False}
            ],
        },
    )
