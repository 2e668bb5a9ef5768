"""Grader tests for StrategyMinimax. The student's strategy plays on the REFERENCE game, so a
bug in their TippyGameState costs marks once (state criterion); where it does not play right
there, it plays on their own game (a strategy may read their own state's fields); any optimal
move counts."""

from __future__ import annotations

import pytest

from graders.packs.tippy import checks, generate, oracle
from graders.solver import SUBTRACT_SQUARE
from graders.testing import Unplayable, right_on_either

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


OWN = "your own TippyGameState"


@pytest.fixture
def games(make_worker):
    """The strategy on the instructor's game, then on the student's own (made when needed)."""
    return [lambda: make_worker(student=["strategy_minimax.py"],
                                reference=["tippy_game_state.py", "tippy_move.py"]),
            lambda: make_worker(student=["strategy_minimax.py"], label="own game")]


def playable(answer, spot, seed=None):
    """``answer``, unless the driver could not use it on this game (a move it cannot take)."""
    if answer["why"] is not None:
        game = "" if seed is None else f", game {seed}"
        raise Unplayable(f"{checks.describe(spot)}{game}: {answer['why']}", {})
    return answer


@pytest.mark.cases(optimal, ids=spot_id)
def test_minimax_plays_an_optimal_move(games, case):
    spot = case

    def ask(game):
        return playable(game.call("minimax_move", len(spot["board"]), spot["cells"]), spot)

    def judge(got):
        score = {1: "a win", 0: "a tie", -1: "a loss"}
        chosen = oracle.move_values(spot["board"], spot["player"]).get(tuple(got["cell"]))
        assert got["cell"] in spot["best"], (
            f"{checks.describe(spot)}: suggest_move chose {tuple(got['cell'])}, which "
            f"guarantees only {score.get(chosen, chosen)}; {score[spot['value']]} was possible "
            f"with any of {[tuple(c) for c in spot['best']]}")

    right_on_either(games, ask, judge, own=OWN)


@pytest.mark.cases(forced, ids=spot_id)
def test_minimax_wins_every_game_against_random_play(games, case):
    spot, n = case, len(case["board"])

    def ask(game):
        played = game.call("minimax_vs_random", n, spot["cells"], SEEDS)
        return [playable(one, spot, seed) for seed, one in zip(SEEDS, played, strict=True)]

    def judge(played):
        for one in played:
            game = spot["cells"] + one["cells"]
            try:  # the student's own game may go on past a win, or mark a taken square
                result = oracle.status(oracle.replay(n, game))
            except ValueError as exc:
                raise AssertionError(
                    f"{checks.describe(spot)}: against random moves the game went on "
                    f"{checks.game_text(game)}, which the rules do not allow ({exc})") from None
            assert result == spot["player"], (
                f"{checks.describe(spot)}: a forced win, but against random moves the game went "
                f"on {checks.game_text(spot['cells'] + one['cells'])} and ended {result!r}")

    right_on_either(games, ask, judge, own=OWN)


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
