"""Grader tests for the game_view.py hook-up (parent side, plain data only).

Judged by behaviour: the student's game_view.py runs as ``__main__`` on the student's own
classes with scripted answers to its menus; the human's moves and the computer's search are
counting stand-ins (the game and the search are graded by their own criteria). The edit is
judged by the CODE lines it changes (``view_lines``): blank lines, comments, docstrings and
prompt wording are left out.
"""

from __future__ import annotations

import pytest

from graders.packs.tippy import view_lines
from graders.testing import expect_text

ENDINGS = ("Beat ya!", "Congrats -- you won!!", "We tied...")
MOST_CHANGED = 11  # "less than a dozen"


def check_game(got, what: str) -> list[str]:
    lines = got["transcript"].strip().splitlines()
    tail = "\n".join(lines[-6:])
    assert got["error"] is None, f"{what}: game_view.py stopped with {got['error']}; its last " \
        f"lines:\n{tail}"
    assert lines and lines[-1] in ENDINGS, (
        f"{what}: the game did not end with one of the starter's messages {ENDINGS}; its last "
        f"lines:\n{tail}")
    return lines


def offers_tippy_and_minimax(student) -> None:
    """Fail unless answering t, then m plays the student's tippy against StrategyMinimax.

    Every game_view case needs it: keeping subtract square, or changing few lines, is no
    credit for a file that does not hook the new game up.
    """
    got = student.call("run_game_view", ["t", "m", ""])
    check_game(got, "answering t (tippy), then m (minimax)")
    assert got["tippy_moves"] > 0, "answering t did not start a game of your TippyGameState"
    assert got["minimax_calls"] > 0, "answering m did not make the computer use StrategyMinimax"


def test_game_view_offers_tippy_and_minimax(student):
    offers_tippy_and_minimax(student)


def test_game_view_still_offers_subtract_square_and_random(student):
    offers_tippy_and_minimax(student)
    got = student.call("run_game_view", ["s", "r", ""])
    lines = check_game(got, "answering s (subtract square), then r (random)")
    assert any("Current total" in line for line in lines), "answering s no longer starts " \
        "subtract square"
    assert got["minimax_calls"] == 0, "answering r made the computer use StrategyMinimax"


@pytest.mark.public
def test_game_view_changes_fewer_than_a_dozen_code_lines(student, submission, public_file):
    source = submission.files.get("game_view.py")
    assert source is not None, "game_view.py was not handed in"
    offers_tippy_and_minimax(student)
    starter = public_file("game_view.py")
    try:
        found = view_lines.changes(starter, source)
    except SyntaxError as error:
        raise AssertionError(f"game_view.py is not valid Python: {error}") from None
    if found.outside:
        expect_text(view_lines.outside_text(source), view_lines.outside_text(starter),
                    mode="rstrip", what="game_view.py outside its imports and its __main__ "
                    f"block (code changed on line(s) {found.outside}; the handout: 'Do not "
                    "change any other part of the starter code')")
        raise AssertionError(f"game_view.py changes code outside its imports and its __main__ "
                             f"block, on line(s) {found.outside}")
    assert found.count <= MOST_CHANGED, (
        f"game_view.py changes {found.count} lines of code (blank lines, comments, docstrings "
        f"and prompt wording not counted); the handout allows fewer than a dozen")
