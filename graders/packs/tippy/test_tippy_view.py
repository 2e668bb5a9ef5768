"""Grader tests for the game_view.py hook-up: it runs as ``__main__`` on the student's classes
with scripted menu answers (moves and search are counting stand-ins); the edit is judged by the
CODE lines it changes (``graders.code_lines``) from the starter version closest to it, lines
most of the class shares counting as starter lines (``graders.consensus``)."""

from __future__ import annotations

import pytest

from graders import code_lines
from graders.packs.tippy import checks
from graders.starter import closest_starter


def test_game_view_offers_tippy_and_minimax(student):
    checks.offers_tippy_and_minimax(student)


def test_game_view_still_offers_subtract_square_and_random(student):
    checks.offers_tippy_and_minimax(student)
    got = student.call("run_game_view", ["s", "r", ""])
    lines = checks.game_view_lines(got, "answering s (subtract square), then r (random)")
    assert any("Current total" in line for line in lines), "answering s no longer starts " \
        "subtract square"
    assert got["minimax_calls"] == 0, "answering r made the computer use StrategyMinimax"


@pytest.mark.public
def test_game_view_changes_fewer_than_a_dozen_code_lines(student, submission, pack):
    source = submission.files.get("game_view.py")
    assert source is not None, "game_view.py was not handed in"
    checks.offers_tippy_and_minimax(student)
    starter = closest_starter(pack, "game_view.py", source)
    assert starter is not None, "the pack declares no starter for game_view.py"
    code_lines.expect_few_changes(
        starter, source, most=11, file="game_view.py", shared=pack.shared_lines("game_view.py"),
        handout="Add or modify a few (less than a dozen) lines of game_view.py ... Do not "
        "change any other part of the starter code.")
