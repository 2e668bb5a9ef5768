"""Grader tests for StrategyMinimax. The student's strategy plays on the REFERENCE game, so a
bug in their TippyGameState costs marks once (state criterion); any optimal move counts."""

from __future__ import annotations

import pytest

from graders.packs.tippy import checks, generate, oracle
from graders.solver import SUBTRACT_SQUARE

# (n, empty squares, how many, seed): the positions generate.minimax_positions makes.
OPTIMAL = [(3, 6, 5, 21), (4, 6, 5, 22), (5, 5, 2, 23)]
FORCED = [(3, 5, 2, 31), (4, 6, 2, 32)]  # a forced win (value 1) for the player to move
SEEDS = [1, 2, 3]


def cases(kinds):
    return [(kind, i) for kind in kinds for i in range(kind[2])]


def position(batch_memo, kind, i, value=None):
    """Position i of that kind (made once per batch)."""
    key = ("minimax-positions", kind, value)
    if key not in batch_memo:
        n, empty, count, seed = kind
        batch_memo[key] = generate.minimax_positions(n, empty, count, seed=seed, value=value)
    return batch_memo[key][i]


@pytest.fixture
def on_reference_game(make_worker):
    return make_worker(student=["strategy_minimax.py"],
                       reference=["tippy_game_state.py", "tippy_move.py"])


@pytest.mark.parametrize(("kind", "i"), cases(OPTIMAL))
def test_minimax_plays_an_optimal_move(on_reference_game, batch_memo, kind, i):
    spot = position(batch_memo, kind, i)
    got = on_reference_game.call("minimax_move", kind[0], spot["cells"])
    assert got["why"] is None, f"{checks.describe(spot)}: {got['why']}"
    score = {1: "a win", 0: "a tie", -1: "a loss"}
    chosen = oracle.move_values(spot["board"], spot["player"]).get(tuple(got["cell"]))
    assert got["cell"] in spot["best"], (
        f"{checks.describe(spot)}: suggest_move chose {tuple(got['cell'])}, which guarantees "
        f"only {score.get(chosen, chosen)}; {score[spot['value']]} was possible with any of "
        f"{[tuple(c) for c in spot['best']]}")


@pytest.mark.parametrize(("kind", "i"), cases(FORCED))
def test_minimax_wins_every_game_against_random_play(on_reference_game, batch_memo, kind, i):
    spot, n = position(batch_memo, kind, i, value=1), kind[0]
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
