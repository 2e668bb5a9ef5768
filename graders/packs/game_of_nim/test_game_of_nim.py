"""game_of_nim grader tests (parent side, plain data only): the rules, then play.

The tests of what the handout states are public (the student pre-check runs them): their
expectations come from the pack's own oracle, through ``checks.py``. The differential tests
compare with the reference on boards Hypothesis generates and shrinks. Alpha-beta is the pack's
exact fast search (``driver.fast_alpha_beta``) run on the submission's game. No vacuous
credit: a property (moves are tuples, the input is left unchanged) earns its share only where
the function under test also does its job.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from graders.errors import StudentFault
from graders.packs.game_of_nim import checks
from graders.packs.game_of_nim.checks import (
    MOVE_ORDER,
    TRANSCRIPT,
    call,
    case_id,
    game_text,
    play_view,
)
from graders.packs.game_of_nim.oracle import board_after, legal_moves, path_from_choices
from graders.testing import Mismatch, expect_equal, expect_text, grading_settings, normalise

INITIAL_BOARDS = [[0, 5, 3, 1], [7, 5, 3, 1], [0, 2, 3, 1], [3, 0, 2], [0, 0, 4], [1, 2], [0, 0]]
ORDER_BOARDS = [[0, 2, 3, 1], [0, 5, 3, 1], [7, 5, 3, 1], [2, 0, 3]]
PATHS = [([0, 5, 3, 1], [[1, 3]]), ([7, 5, 3, 1], [[0, 1], [0, 6], [1, 3], [3, 1]]),
         ([3, 0, 2], [[2, 2], [0, 1], [0, 2]]), ([2, 1], [[0, 2], [1, 1]])]
# terminal_test: each case is a position where play goes on and one where it is over, so a
# constant answer earns nothing. The first four "goes on" positions have an empty row.
TERMINAL_CASES = [
    (([0, 3, 0], []), ([0, 0, 0], [])),
    (([0, 5, 3, 1], []), ([0, 5, 3, 1], [[1, 5], [2, 3], [3, 1]])),
    (([3, 0, 0, 2], [[3, 1]]), ([3, 0, 0, 2], [[3, 1], [0, 3], [3, 1]])),
    (([2, 0, 1], [[0, 2]]), ([2, 0, 1], [[0, 2], [2, 1]])),
    (([1, 2], []), ([0, 0], [])), (([1, 1], []), ([1, 1], [[0, 1], [1, 1]])),
    (([2, 3], [[1, 1]]), ([2, 3], [[1, 1], [0, 2], [1, 2]])), (([4], []), ([0, 0, 0, 0], [])),
]


@pytest.mark.public
@pytest.mark.parametrize("board", INITIAL_BOARDS, ids=case_id)
def test_initial_state(student, pack, board):
    got = call(student, pack, "play", board, [])["initial"]
    checks.expect_state(got, board, [], "the initial state")


@pytest.mark.public
@pytest.mark.parametrize("board", ORDER_BOARDS, ids=case_id)
def test_move_order(student, pack, board):
    initial = call(student, pack, "play", board, [])["initial"]
    got = checks.field(initial, "moves", f"the initial state of {game_text(board, [])}")
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
@pytest.mark.parametrize("case", checks.FINISHED, ids=case_id)
def test_utility(student, pack, case):
    for board, moves in case:
        out = call(student, pack, "first_utility", board, moves)
        checks.expect_utility(out, board, moves, pack.settings["rule"])


@pytest.mark.public
def test_rule_probe(student, pack):
    checks.expect_probe(call(student, pack, "choose", [2, 1], []), pack.settings["rule"])


# -- differential tests (hidden: they use the reference) -------------------------------------
@grading_settings(max_examples=25)
@given(board=st.lists(st.integers(0, 4), min_size=1, max_size=4),
       choices=st.lists(st.integers(0, 99), max_size=10))
def test_agrees_on_play(student, reference, pack, board, choices):
    path = path_from_choices(board, choices)
    expect_equal(play_view(student, pack, board, path), play_view(reference, pack, board, path),
                 what=f"the states of {game_text(board, path)} (index 0 = the initial state)")


@grading_settings(max_examples=20)
@given(board=st.lists(st.integers(0, 3), min_size=1, max_size=4),
       opening=st.lists(st.integers(0, 99), max_size=2))
def test_alpha_beta_choice_is_optimal(student, reference, pack, board, opening):
    # Alpha-beta moves first, as in the handout's main: from the initial state, or after one
    # move of each player. Only there do both readings of utility() agree.
    path = path_from_choices(board, opening)
    path = path[: len(path) // 2 * 2]
    assume(any(board_after(board, path)))
    values = call(reference, pack, "move_values", board, path)
    checks.expect_optimal(call(student, pack, "choose", board, path), values, board, path)


# -- the handout's sample game ---------------------------------------------------------------
@pytest.mark.public
def test_handout_transcript(student, pack, public_file):
    board, typed, _ = checks.handout_game(pack)
    mode = pack.settings["transcript_mode"]

    def replayed(in_order=False):
        return student.call("replay", board, typed, pack.settings["rule"], in_order=in_order,
                            timeout=pack.settings["replay_seconds"])

    out = replayed()
    stopped = f" ({checks.why_stopped(out['error'])})" if out["error"] else ""
    try:
        expect_text(out["transcript"], public_file(TRANSCRIPT), mode=mode,
                    what=f"the game from {board} vs {TRANSCRIPT}{stopped}")
    except Mismatch as differs:
        # Moves listed in another order change the moves shown and the computer's choice among
        # equals: the order criterion's flaw, charged there (one flaw, one charge), where that
        # criterion saw it (this board's initial moves) and the order is all that differs.
        if order_seen(student, pack, board) and in_order_matches(
                lambda: replayed(in_order=True), public_file(TRANSCRIPT), mode):
            checks.expect_shows_board(out.get("displayed"), board)  # its own check still
            differs.causes[MOVE_ORDER] = checks.MOVE_ORDER_WORDS
        raise
    checks.expect_shows_board(out.get("displayed"), board)


def order_seen(student, pack, board) -> bool:
    """Whether test_move_order sees this board's moves out of the handout's order."""
    try:
        initial = call(student, pack, "play", board, [])["initial"]
        return checks.field(initial, "moves", "") != legal_moves(board)
    except AssertionError:  # no moves to read: not the order criterion's flaw alone
        return False


def in_order_matches(replay_in_order, transcript: str, mode) -> bool:
    """Whether the game replayed with the moves in the handout's order gives ``transcript``
    (a timeout or crash there says no: the first replay's difference stands)."""
    try:
        return normalise(replay_in_order()["transcript"], mode) == normalise(transcript, mode)
    except StudentFault:
        return False


@pytest.mark.public
def test_notes(student, pack):
    """What the handout does not grade (in no criterion, never costs marks): passes, or is
    skipped with notes for the student."""
    try:
        out = call(student, pack, "compat", [2, 1])
    except StudentFault as exc:
        pytest.skip(f"notes unavailable: {exc}")
    if found := checks.notes(out):
        pytest.skip("Not graded: " + "; ".join(found) + ".")
