"""Grader tests for StrategyMinimax. The student's strategy plays on the REFERENCE game, so a
bug in their TippyGameState costs marks once (state criterion); any optimal move counts."""

from __future__ import annotations

import pytest

from graders.packs.tippy import checks, generate, oracle
from graders.solver import SUBTRACT_SQUARE

SEEDS = [1, 2, 3]


def optimal():
    """Positions where some move is not optimal: (n, empty squares, how many, seed)."""
    return [spot for n, empty, count, seed in [(3, 6, 5, 21), (4, 6, 5, 22), (5, 5, 2, 23)]
            for spot in generate.minimax_positions(n, empty, count, seed=seed)]


def forced():
    """Positions with a forced win (value 1) for the player to move."""
    return [spot for n, empty, count, seed in [(3, 5, 2, 31), (4, 6, 2, 32)]
            for spot in generate.minimax_positions(n, empty, count, seed=seed, value=1)]


def spot_id(spot):
    n = len(spot["board"])
    return f"{n}x{n}-{len(spot['moves'])}empty-{spot['player']}"


@pytest.fixture
def on_reference_game(make_worker):
    return make_worker(student=["strategy_minimax.py"],
                       reference=["tippy_game_state.py", "tippy_move.py"])


@pytest.mark.cases(optimal, ids=spot_id)
def test_minimax_plays_an_optimal_move(on_reference_game, case):
    spot = case
    got = on_reference_game.call("minimax_move", len(spot["board"]), spot["cells"])
    assert got["why"] is None, f"{checks.describe(spot)}: {got['why']}"
    score = {1: "a win", 0: "a tie", -1: "a loss"}
    chosen = oracle.move_values(spot["board"], spot["player"]).get(tuple(got["cell"]))
    assert got["cell"] in spot["best"], (
        f"{checks.describe(spot)}: suggest_move chose {tuple(got['cell'])}, which guarantees "
        f"only {score.get(chosen, chosen)}; {score[spot['value']]} was possible with any of "
        f"{[tuple(c) for c in spot['best']]}")


@pytest.mark.cases(forced, ids=spot_id)
def test_minimax_wins_every_game_against_random_play(on_reference_game, case):
    spot, n = case, len(case["board"])
    for seed, game in zip(SEEDS, on_reference_game.call(
            "minimax_vs_random", n, spot["cells"], SEEDS), strict=True):
        assert game["why"] is None, f"{checks.describe(spot)}, game {seed}: {game['why']}"
        result = oracle.status(oracle.replay(n, spot["cells"] + game["cells"]))
        assert result == spot["player"], (
            f"{checks.describe(spot)}: a forced win, but against random moves the game went on "
            f"{checks.game_text(spot['cells'] + game['cells'])} and ended {result!r}")


@pytest.mark.public
@pytest.mark.parametrize(("total", "lost"), [(8, 5), (9, 7), (13, 10), (14, 12), (18, 15)])
def test_minimax_plays_subtract_square_too(student, total, lost):
    """A won total, and a lost one (where every move loses, minimax must still move)."""
    for start in (total, lost):
        amount = student.call("minimax_subtract_square", start)
        best = SUBTRACT_SQUARE.best_moves(start)
        assert isinstance(amount, int) and amount in best, (
            f"SubtractSquareState('p1', current_total={start}): suggest_move removed "
            f"{amount!r}; a best move removes one of {best} (minimax must work for any "
            "GameState)")
