"""graders/solver.py: the engine's memoised negamax, which pack oracles (stonehenge's) build
on."""

from __future__ import annotations

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
