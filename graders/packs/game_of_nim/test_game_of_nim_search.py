"""game_of_nim grader tests that play the game (parent side, plain data only).

Alpha-beta's moves come from the pack's memoised search run on the submission's game in the
sandbox (``driver.fast_alpha_beta``): it returns exactly the move of the textbook's
``alpha_beta_search`` (proved in tests/packs/game_of_nim/), in a fraction of the time.
Differential tests compare with the reference on boards Hypothesis generates and shrinks, so
a failure shows the smallest board found.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from graders.errors import StudentFault
from graders.packs.game_of_nim import checks
from graders.packs.game_of_nim.checks import TRANSCRIPT, call, game_text, play_view
from graders.packs.game_of_nim.generate import path_from_choices
from graders.packs.game_of_nim.oracle import board_after
from graders.testing import Mismatch, expect_equal, expect_text, grading_settings


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
    out = student.call("replay", board, typed, pack.settings["rule"],
                       timeout=pack.settings["replay_seconds"])
    try:
        expect_text(out["transcript"], public_file(TRANSCRIPT),
                    mode=pack.settings["transcript_mode"], what=f"the game from {board} vs "
                    f"{TRANSCRIPT}")
    except Mismatch as exc:
        if not out["error"]:
            raise
        raise Mismatch(f"{exc.message}\nThe game stopped early: {out['error']}",
                       exc.details) from None
    checks.expect_shows_board(out.get("displayed"), board)


# -- notes: what the handout does not grade (never costs marks) -------------------------------


@pytest.mark.public
def test_notes(student, pack):
    """Not in any criterion: passes, or is skipped with notes for the student."""
    try:
        out = call(student, pack, "compat", [2, 1])
    except StudentFault as exc:
        pytest.skip(f"notes unavailable: {exc}")
    if found := checks.notes(out):
        pytest.skip("Not graded: " + "; ".join(found) + ".")
