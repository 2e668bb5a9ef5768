"""Grader tests for the game_view.py hook-up (parent side, plain data only).

The student's game_view.py runs as ``__main__`` on the REFERENCE game and strategy (a mixed
workspace), with scripted answers to its prompts; the changed-lines rule checks the edit.
``test_view_code_outside_the_menus`` feeds no criterion (the rule decides the marks): it puts a
side-by-side diff of the code changed outside the menus in the report.
"""

from __future__ import annotations

import ast

import pytest

from graders.rules._source import scan
from graders.rules.changed_lines import region_lines
from graders.testing import expect_text

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
    assert lines and lines[-1] in ENDINGS, (
        f"{what}: the game did not end with one of the starter's messages {ENDINGS}; its last "
        f"lines:\n{tail}")
    return lines


def test_game_view_adds_tippy_and_minimax_and_keeps_the_rest(with_reference_game):
    answers = ["t", "m", "", "3", *TIPPY_MOVES]
    got = with_reference_game.call("run_game_view", answers)
    lines = check_game(got, "answering t (tippy), then m (minimax)")
    assert any("Mark row" in line for line in lines), "answering t did not start tippy"
    assert got["minimax_calls"] > 0, "answering m did not make the computer use StrategyMinimax"
    got = with_reference_game.call("run_game_view", ["s", "r", "", "10", *["1"] * 12])
    lines = check_game(got, "answering s (subtract square), then r (random)")
    assert any("Current total" in line for line in lines), "answering s no longer starts " \
        "subtract square"
    assert got["minimax_calls"] == 0, "answering r made the computer use StrategyMinimax"


def outside_the_menus(source: str) -> str:
    """The lines of code of ``source`` outside its imports and its __main__ block."""
    try:
        menus = region_lines(ast.parse(source), ["imports", "main"])
    except (SyntaxError, ValueError) as error:
        raise AssertionError(f"game_view.py is not valid Python: {error}") from None
    code = scan(source).code
    return "\n".join(line.rstrip() for number, line in enumerate(source.splitlines(), 1)
                     if number in code and number not in menus)


@pytest.mark.public
def test_view_code_outside_the_menus(submission, public_file):
    source = submission.files.get("game_view.py")
    assert source is not None, "game_view.py was not handed in"
    expect_text(outside_the_menus(source), outside_the_menus(public_file("game_view.py")),
                mode="rstrip", what="game_view.py outside the imports and the __main__ block "
                "(code lines only; comments and blank lines left out)")
