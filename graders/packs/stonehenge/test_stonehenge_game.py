"""Grader tests for the Stonehenge rules, __repr__ and rough_outcome (parent side).

The game is reached through game_interface.playable_games['h'] (whatever it is called, with
the student's helper modules) with its one input() answered by the driver. Expected values come
from the oracle. The instructor's strategies also play on the student's game (a mixed
workspace), so a game that breaks minimax costs game marks only. A property (equal reprs, a
state left unchanged) earns its share only where the function also does its job there.
"""

from __future__ import annotations

import pytest

from graders.errors import StudentError
from graders.packs.stonehenge import checks, checks_strategies, generate, oracle

RULE_FIELDS = ["player", "moves", "over", "winners"]
AT_LEAST_HALF = "a player holding at least half of a ley-line's cells captures it"
FOR_GOOD = "a captured ley-line never changes hands"


@pytest.mark.public
def test_game_constructor_asks_once(student):
    got = student.call("new_game", 2, True)
    assert len(got["prompts"]) == 1, (
        f"the game's constructor called input() {len(got['prompts'])} times (prompts: "
        f"{got['prompts']}); it must ask for the side length with exactly ONE input()")
    # The constructor's job is a board of the size typed in, not only one question.
    where = "a new side-2 game"
    checks.expect_moves(checks.field(got, "moves", where), oracle.views(2, True, [])[0], where)


@pytest.mark.public
def test_game_current_player(student):
    checks.expect_trace(student, 2, True, "A", ["player"])
    checks.expect_trace(student, 2, False, "A", ["player"])


@pytest.mark.public
def test_game_side_1_first_move_wins(student):
    for move in "ABC":
        checks.expect_trace(student, 1, True, move, RULE_FIELDS)


@pytest.mark.public
def test_game_side_2_spec_game(student):
    checks.expect_trace(student, 2, True, "AGDEF", RULE_FIELDS)


@pytest.mark.cases(generate.games, seed=148, count=8, sides=(2, 3, 4, 5), ids=checks.side_id)
def test_game_random_game(student, case):
    checks.expect_trace(student, case["side"], case["p1_starts"], case["moves"], RULE_FIELDS)


def test_game_capture_needs_only_half(student):
    # p1 holds F and G: two of row F G H I, exactly half, and p2 none of it.
    checks.expect_marker(student, 3, True, "FAG", "h2", AT_LEAST_HALF)
    # p1 holds A: one of the two cells of row A B.
    checks.expect_marker(student, 2, True, "A", "h0", AT_LEAST_HALF)


def test_game_captured_line_never_changes_hands(student):
    # p2 took G (half of row F G) first; p1's F later also holds half, but h2 stays p2's.
    checks.expect_marker(student, 2, True, "AGDEF", "h2", FOR_GOOD)
    # p2 took F and G (half of row F G H I); p1 then holds H and I, still p2's line.
    checks.expect_marker(student, 3, False, "FHGAJI", "h2", FOR_GOOD)


def test_game_no_moves_once_over(student):
    checks.expect_trace(student, 2, True, "AGDEF", ["moves"])
    checks.expect_trace(student, 1, False, "B", ["moves"])


@pytest.mark.public
def test_game_str_to_move(student):
    got = student.call("moves_check", 1, True, [], ["A", "D"])
    assert got["A"], "str_to_move('A') is not a valid move of the empty side-1 board"
    assert not got["D"], "str_to_move('D') is a valid move on a side-1 board, which has A-C"


@pytest.mark.public
def test_game_make_move_returns_a_new_state(student):
    got = student.call("make_move_effect", 2, True, ["A"], "G", True)
    where = "make_move(str_to_move('G')) after A on side 2"
    assert got["state_unchanged"], f"{where} changed the state it was called on"
    assert got["new_object"], f"{where} returned the same state object: return a NEW state"
    assert got["current_state_same_object"], f"{where} replaced the game's current_state"
    checks.expect_cells(got["board_after"], 2, "AG", f"the board {where}")


@pytest.mark.public
def test_game_make_move_takes_a_raw_string(student):
    got = student.call("make_move_effect", 2, True, [], "A")
    checks.expect_cells(got["board_after"], 2, "A", "the board make_move('A') returns on side 2")


@pytest.mark.parametrize("key", ["mr", "mi"])
def test_game_supports_reference_minimax(make_worker, key):
    """The instructor's strategy.py over the student's workspace: the student's game (reached
    through playable_games['h'], with their helper modules) under the instructor's minimax."""
    worker = make_worker(student=["stonehenge.py"], reference=["strategy.py"])
    for position in [*generate.SPEC_POSITIONS, *generate.search_positions(seed=8, count=2)]:
        side, p1_starts, moves = position["side"], position["p1_starts"], position["moves"]
        try:
            got = worker.call("strategy", key, side, p1_starts, moves, instructor=True)
        except StudentError as error:
            raise StudentError("the instructor's minimax, run on YOUR game at "
                               f"{checks.position_text(side, p1_starts, moves)}, failed: "
                               f"{error.message}", details=error.details) from None
        says = ("the instructor's minimax, run on YOUR game, went wrong: {} (check is_over, "
                "is_winner, get_possible_moves and make_move together)")
        try:
            checks_strategies.expect_best_move(got, position, says)
        except AssertionError as failure:
            checks_strategies.expect_slip_best_move(worker, got, position, failure)


@pytest.mark.public
def test_state_repr_depends_on_player(student):
    p1_first, p2_first = (checks.repr_after(student, 2, first, "") for first in (True, False))
    assert p1_first != p2_first, (
        "the empty side-2 boards with p1 and with p2 to move have the same repr; repr must "
        "tell whose turn it is")


@pytest.mark.public
def test_state_repr_same_position_same_text(student):
    same = checks.repr_after(student, 3, True, "FCE")
    assert same == checks.repr_after(student, 3, True, "ECF"), (
        "F C E and E C F reach the same side-3 position, but their reprs differ")
    # Equal reprs earn this share only where repr also tells positions apart.
    assert same != checks.repr_after(student, 3, True, "FCA"), (
        "F C E and F C A give different boards but the same repr")


def transposed_pairs():
    """Three pairs of move orders on side 3, two on side 4."""
    return (generate.transpositions(seed=2, count=3, side=3)
            + generate.transpositions(seed=4, count=2, side=4))


@pytest.mark.cases(transposed_pairs, ids=checks.side_id)
def test_state_repr_transpositions(student, case):
    args = case["side"], case["p1_starts"]
    first = checks.repr_after(student, *args, case["first"])
    assert first == checks.repr_after(student, *args, case["second"]), (
        f"{checks.position_text(*args, case['first'])} and the order {case['second']} reach "
        "the same position, but their reprs differ")
    earlier = case["first"][:-2]
    assert first != checks.repr_after(student, *args, earlier), (
        f"{checks.position_text(*args, case['first'])} and "
        f"{checks.position_text(*args, earlier)} are different positions (same player to "
        "move), but their reprs are the same")


@pytest.mark.public
def test_state_repr_tells_boards_apart(student):
    fce, fca = (checks.repr_after(student, 3, True, moves) for moves in ("FCE", "FCA"))
    assert fce != fca, "F C E and F C A give different boards but the same repr"


@pytest.mark.public
def test_state_rough_outcome_spec_cases(student):
    """A number in [LOSE, WIN]; exactly LOSE where the game is over (the spec pins no more:
    any estimate is accepted elsewhere)."""
    for side, p1_starts, moves in [(2, True, "AGDEF"), (1, True, ""), (2, True, "AGD"),
                                   (3, True, ""), (1, False, "B")]:
        checks.expect_trace(student, side, p1_starts, moves, ["rough"])


@pytest.mark.cases(generate.games, seed=1480, count=6, sides=(2, 3, 4), ids=checks.side_id)
def test_state_rough_outcome_random_game(student, case):
    checks.expect_trace(student, case["side"], case["p1_starts"], case["moves"], ["rough"])
