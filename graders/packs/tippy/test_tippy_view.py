"""Grader tests for the game_view.py hook-up: it runs as ``__main__`` on the student's classes
with scripted menu answers (moves and search are counting stand-ins). The edit's size and place
(fewer than a dozen CODE lines, in the imports and the __main__ block) are the changed-lines
rule's, which feeds the same criterion (assignment.toml)."""

from __future__ import annotations

from graders.packs.tippy import checks


def test_game_view_offers_tippy_and_minimax(student):
    checks.offers_tippy_and_minimax(student)


def test_game_view_still_offers_subtract_square_and_random(student):
    checks.offers_tippy_and_minimax(student)
    got = student.call("run_game_view", ["s", "r", ""])
    lines = checks.game_view_lines(got, "answering s (subtract square), then r (random)")
    assert any("Current total" in line for line in lines), "answering s no longer starts " \
        "subtract square"
    assert got["minimax_calls"] == 0, "answering r made the computer use StrategyMinimax"

