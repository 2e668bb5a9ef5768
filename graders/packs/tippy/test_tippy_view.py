"""Grader tests for the game_view.py hook-up (parent side, plain data only).

The student's game_view.py runs as ``__main__`` on the REFERENCE game and strategy (a mixed
workspace), with scripted answers to its prompts; the changed-lines rule checks the edit.
"""

from __future__ import annotations

import pytest

ENDINGS = ("Beat ya!", "Congrats -- you won!!", "We tied...")
TIPPY_MOVES = ["1 1"] + [f"{r} {c}" for r in range(3) for c in range(3)]


@pytest.fixture
def with_reference_game(make_worker):
    return make_worker(student=["game_view.py"],
                       reference=["tippy_game_state.py", "tippy_move.py", "strategy_minimax.py"])


def check_game(got, what: str) -> list[str]:
    lines = got["transcript"].strip().splitlines()
    tail = "\n".join(lines[-6:])
    assert got["error"] is None, f"{what}: game_view.py stopped with {got['error']}; its last " \
        f"lines:\n{tail}"
    assert lines and lines[-1] in ENDINGS, f"{what}: the game did not finish; last lines:\n{tail}"
    return lines


def test_game_view_offers_tippy_against_minimax(with_reference_game):
    answers = ["t", "m", "", "3", *TIPPY_MOVES]
    got = with_reference_game.call("run_game_view", answers)
    lines = check_game(got, "answering t (tippy), then m (minimax)")
    assert any("Mark row" in line for line in lines), "answering t did not start tippy"
    assert got["minimax_calls"] > 0, "answering m did not make the computer use StrategyMinimax"


def test_game_view_keeps_subtract_square_and_random(with_reference_game):
    answers = ["s", "r", "", "10", *["1"] * 12]
    got = with_reference_game.call("run_game_view", answers)
    lines = check_game(got, "answering s (subtract square), then r (random)")
    assert any("Current total" in line for line in lines), "answering s did not start " \
        "subtract square"
    assert got["minimax_calls"] == 0, "answering r made the computer use StrategyMinimax"
