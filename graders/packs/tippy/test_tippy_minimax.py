"""Grader tests for StrategyMinimax (parent side, plain data only).

The student's strategy plays on the REFERENCE game (a mixed workspace), so a bug in their
TippyGameState costs marks once, in the state criterion. Any optimal move is accepted: the
oracle knows every move's guaranteed score. Positions start partly filled, so plain minimax
answers quickly.
"""

from __future__ import annotations

import pytest

from graders.packs.tippy import expect, generate, oracle

OPTIMAL = (generate.minimax_positions(3, 6, 5, seed=21)
           + generate.minimax_positions(4, 6, 5, seed=22)
           + generate.minimax_positions(5, 5, 2, seed=23))
FORCED = (generate.minimax_positions(3, 5, 2, seed=31, value=1)
          + generate.minimax_positions(4, 6, 2, seed=32, value=1))
SEEDS = [1, 2, 3]
SUBTRACT_SQUARE = [8, 9, 13, 14, 18]


def ids(positions):
    return [f"{len(p['board'])}x{len(p['board'])}-{i}" for i, p in enumerate(positions)]


@pytest.fixture
def on_reference_game(make_worker):
    return make_worker(student=["strategy_minimax.py"],
                       reference=["tippy_game_state.py", "tippy_move.py"])


def describe(position) -> str:
    n = len(position["board"])
    return (f"{n} x {n} board {expect.picture(position['board'])}, {position['player']} "
            f"({oracle.MARK_OF[position['player']]}) to move")


@pytest.mark.parametrize("position", OPTIMAL, ids=ids(OPTIMAL))
def test_minimax_plays_an_optimal_move(on_reference_game, position):
    n = len(position["board"])
    got = on_reference_game.call("minimax_move", n, position["cells"])
    assert got["why"] is None, f"{describe(position)}: {got['why']}"
    score = {1: "a win", 0: "a tie", -1: "a loss"}
    values = oracle.move_values(position["board"], position["player"])
    chosen = values.get((got["cell"][0], got["cell"][1]))
    assert got["cell"] in position["best"], (
        f"{describe(position)}: suggest_move chose {tuple(got['cell'])}, which guarantees only "
        f"{score.get(chosen, chosen)}; {score[position['value']]} was possible with any of "
        f"{[tuple(c) for c in position['best']]}")


@pytest.mark.parametrize("position", FORCED, ids=ids(FORCED))
def test_minimax_wins_every_game_against_random_play(on_reference_game, position):
    n = len(position["board"])
    games = on_reference_game.call("minimax_vs_random", n, position["cells"], SEEDS)
    for seed, game in zip(SEEDS, games, strict=True):
        played = position["cells"] + game["cells"]
        assert game["why"] is None, f"{describe(position)}, game {seed}: {game['why']}"
        result = oracle.status(oracle.replay(n, played))
        assert result == position["player"], (
            f"{describe(position)}: a forced win, but against random moves the game went "
            f"{expect.game_text(played)[len(expect.game_text(position['cells'])) + 1:]} and "
            f"ended {result!r}")


@pytest.mark.public
@pytest.mark.parametrize("total", SUBTRACT_SQUARE)
def test_minimax_plays_subtract_square_too(student, total):
    amount = student.call("minimax_subtract_square", total)
    best = expect.subtract_square_best(total)
    assert isinstance(amount, int) and amount in best, (
        f"SubtractSquareState('p1', current_total={total}): suggest_move removed {amount!r}; "
        f"a best move removes one of {sorted(best)} (minimax must work for any GameState)")
