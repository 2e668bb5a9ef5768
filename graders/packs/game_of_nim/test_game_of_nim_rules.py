"""game_of_nim grader tests for the rules of the game (parent side, plain data only).

The expectations come from the pack's own pure oracle (``generate.py``), so the tests that
check what the handout states are public (the student pre-check runs them). Player labels are
whatever the submission uses: the first label is whoever moves first, the second whoever
moves next. Utilities must be exactly +1 or -1 (as the handout says) and are asked from the
first player's side only, where the handout's "+1 if MAX wins, -1 if MIN wins" and the AIMA
habit (the value for ``player``) agree.
No vacuous credit: a property (moves are tuples, the input state is left unchanged, the game
is over or not) earns its share only where the function under test also does its job.
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


def board_id(board: list[int]) -> str:
    return "[" + ",".join(map(str, board)) + "]"


def path_id(case: tuple) -> str:
    return board_id(case[0]) + "+" + str(len(case[1])) + "moves"


def pair_id(case: tuple) -> str:
    return path_id(case[0]) + "/" + path_id(case[1])


def expect_right_state(step: dict, board: list[int], path: list[list[int]], why: str) -> None:
    """The state ``step`` reached by ``path`` has the right board and legal moves."""
    expected = board_after(board, path)
    expect_equal(
        {"board": step["board"], "moves (any order)": sorted(step["moves"])},
        {"board": expected, "moves (any order)": legal_moves(expected)},
        what=f"the state of {game_text(board, path)} ({why})",
    )


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
    board, path = [0, 2, 3, 1], [[2, 1]]
    out = call(student, pack, "play", board, path)
    states = [
        ("the initial state", out["initial"], []),
        ("the state after (2, 1)", out["steps"][0], path),
    ]
    for where, state, reached_by in states:
        expect_right_state(state, board, reached_by, "only right moves are checked for type")
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
        expect_right_state(step, board, path[:index], "what result() returned")


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
        expect_right_state(
            step,
            board,
            path[: index + 1],
            "an unchanged input earns this share only where "
            "result() also returns the right new state",
        )


# -- terminal_test and utility ---------------------------------------------------------------


@pytest.mark.public
@pytest.mark.parametrize("case", TERMINAL_CASES, ids=pair_id)
def test_terminal_test(student, pack, case):
    got, expected = {}, {}
    for (board, path), over in zip(case, (False, True), strict=True):
        where = f"{game_text(board, path)} (board {board_after(board, path)})"
        got[where] = call(student, pack, "terminal", board, path)
        expected[where] = over
    expect_equal(got, expected, what="terminal_test where play goes on and where it is over")


@pytest.mark.public
@pytest.mark.parametrize("case", FINISHED, ids=path_id)
def test_utility(student, pack, case):
    board, path = case
    rule = pack.settings["rule"]
    out = call(student, pack, "first_utility", board, path)
    first, value = out["player"], out["value"]
    wins = first_player_wins(len(path), rule)
    taker = "the first player" if len(path) % 2 else "the second player"
    alias = "" if first == "MAX" else ", the handout's MAX"
    story = (
        f"{game_text(board, path)}: {taker} took the last object, so under the {rule} rule "
        f"the first player ({first!r}{alias}) {'wins' if wins else 'loses'}"
    )
    sign = "+1" if wins else "-1"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        problem = f"{story}, but utility(state, {first!r}) returned {value!r}, not a number"
    elif value == (1 if wins else -1):
        return
    else:
        problem = (
            f"{story}: utility(state, {first!r}) should be {sign} (the handout: +1 if MAX "
            f"wins, -1 if MIN wins), got {value}"
        )
    raise Mismatch(
        problem,
        {
            "kind": "fields",
            "what": "utility for the first player",
            "rows": [
                {"field": f"utility(state, {first!r})", "expected": sign, "got": value, "ok": False}
            ],
        },
    )
