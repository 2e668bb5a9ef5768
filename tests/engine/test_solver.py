"""graders/solver.py: the engine's memoised negamax, which pack oracles (stonehenge's) build
on."""

from __future__ import annotations

import math
import random

import pytest

from graders import solver


def test_the_engine_solver_on_a_game_of_its_own():
    """graders/solver.py's negamax on subtract square from 7 (states: totals, moves: squares),
    where 7 loses for the mover: every move is optimal, and the plain tree is counted whole."""
    squares = solver.Negamax(
        moves=lambda total: [k * k for k in range(1, 4) if k * k <= total],
        play=lambda total, square: total - square,
        outcome=lambda total: solver.LOSE if total == 0 else None)
    assert squares.score(7) == solver.LOSE and squares.score(6) == solver.WIN
    assert squares.move_scores(7) == {1: solver.LOSE, 4: solver.LOSE}
    assert squares.best_moves(7) == [1, 4] and squares.best_moves(8) == [1]
    assert squares.best_moves(0) == []
    sizes = {0: 1, 1: 2, 2: 3, 3: 4}
    for total in range(4, 8):
        sizes[total] = 1 + sizes[total - 1] + sizes[total - 4]
    assert squares.tree_size(7) == sizes[7]


def test_subtract_square_is_the_engines_starter_game():
    """The one subtract square both courses' strategies are checked on (A:6 wins, in the
    handout's worked example)."""
    game = solver.SUBTRACT_SQUARE
    assert game.score(6) == solver.WIN and game.score(2) == solver.LOSE
    assert game.best_moves(4) == [4] and game.best_moves(18) == [1, 16]
    assert game.best_moves(8) == [1]  # 7 is lost for the opponent, 4 is not
    assert game.best_moves(9) == [4, 9]  # 5 and 0 are lost for the opponent
    assert game.best_moves(5) == [1, 4]  # 5 is lost: every move is as good
    assert game.best_moves(2) == [1] and game.moves(0) == []


def test_a_random_line_stops_where_asked_or_at_the_end():
    game = solver.SUBTRACT_SQUARE
    line, end = game.random_line(random.Random(3), 30)
    assert end == 0 and sum(line) == 30 and all(math.isqrt(m) ** 2 == m for m in line)
    line, end = game.random_line(random.Random(3), 30, stop=lambda total: total < 20)
    assert 0 < end < 20 <= end + line[-1]
    assert game.random_line(random.Random(3), 30) == game.random_line(random.Random(3), 30)


def _draw_total(rng: random.Random, found: int) -> int | None:
    """A total of 20 or more from 40 (misses are redrawn); ``found`` lifts the floor."""
    _, end = solver.SUBTRACT_SQUARE.random_line(rng, 40, stop=lambda total: total < 30)
    return end + found if end >= 20 else None


def test_sample_is_reproducible_from_one_seed_or_one_seed_per_draw():
    once = solver.sample(_draw_total, 6, seed=5)
    assert once == solver.sample(_draw_total, 6, seed=5) and len(once) == 6
    assert all(total >= 20 + i for i, total in enumerate(once))
    seeds = [f"draw-{i}" for i in range(100)]
    each = solver.sample(_draw_total, 4, seed=seeds)
    # One generator per draw: a draw's case depends on its seed alone.
    kept = [case for i, seed in enumerate(seeds[:30])
            if (case := _draw_total(random.Random(seed), 0)) is not None]
    assert [total - i for i, total in enumerate(each)] == kept[:4]


def test_sample_keeps_distinct_cases_and_gives_up_clearly():
    distinct = solver.sample(lambda rng, _: rng.randrange(5), 5, seed=1, distinct=True)
    assert sorted(distinct) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="cannot find 6 distinct positions in 50 draws"):
        solver.sample(lambda rng, _: rng.randrange(5), 6, seed=1, distinct=True, most=50)
    assert solver.sample(lambda rng, _: None, 0, seed=1) == []
