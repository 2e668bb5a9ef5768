"""Parent-side expectations of the stonehenge grader tests on the strategies: a move is
optimal (on the handout's game, or on a capture-rule slip's the student's game shows), and
optimal on subtract square, the starter's game; failures in the player's terms."""

from __future__ import annotations

from typing import Any

from graders.packs.stonehenge import oracle
from graders.packs.stonehenge.checks import (
    SLIP_WORDS,
    all_views,
    as_slip,
    position_text,
    shows_on_witness,
    slip_shown,
)
from graders.solver import SUBTRACT_SQUARE

SCORES = {1: "a win", 0: "a tie", -1: "a loss"}
# usable_strategies' keys, as messages name them.
STRATEGIES = {"mr": "recursive", "mi": "iterative"}

def explain_choice(side: int, p1_starts: bool, moves: list[str], chosen: str | None) -> str:
    """Why a strategy's move is wrong, in the player's terms."""
    pos = oracle.replay(side, p1_starts, moves)
    scores = oracle.move_scores(pos)
    best = oracle.best_moves(pos)
    top = SCORES[scores[best[0]]]
    if chosen not in scores:
        return (f"{position_text(side, p1_starts, moves)}: the strategy returned {chosen!r}, "
                f"which is not a legal move (legal: {sorted(scores)}); best: {best}")
    return (f"{position_text(side, p1_starts, moves)}, {pos.player} to move: the strategy chose "
            f"{chosen}, which guarantees only {SCORES[scores[chosen]]}; {top} was possible "
            f"with any of {best}")


def expect_best_move(got: dict[str, Any], position: dict[str, Any], says: str = "{}") -> None:
    """The strategy's move (a driver ``strategy`` answer) is optimal at ``position``; else
    fail with :func:`explain_choice` put in ``says``."""
    side, p1_starts, moves = position["side"], position["p1_starts"], list(position["moves"])
    best = oracle.best_moves(oracle.replay(side, p1_starts, moves))
    assert got["move"] in best, says.format(explain_choice(side, p1_starts, moves, got["move"]))


def expect_slip_best_move(worker: Any, got: dict[str, Any], position: dict[str, Any],
                          failure: AssertionError) -> None:
    """The instructor's minimax chose ``got`` on the student's game where the handout's game
    has better: if that game shows a capture-rule slip (on ``position``'s moves, or on the
    slip's witness where those moves are the same under it) and the move is optimal under
    the slip, fail naming the slip; else with ``failure``."""
    side, p1_starts, moves = position["side"], position["p1_starts"], list(position["moves"])
    seen = all_views(side, p1_starts, moves)
    cause = slip_shown(worker, side, p1_starts, moves, seen)
    if cause is None:  # moves the slip does not change: the witness alone must show it
        cause = next((slipped for slipped in SLIP_WORDS if seen[slipped] == seen[None]
                      and shows_on_witness(worker, slipped)), None)
    if cause is not None and got["move"] in oracle.slip_best_moves(side, p1_starts, moves, cause):
        raise as_slip(failure, cause) from None
    raise failure


def expect_subtract_square(worker: Any, key: str, totals: list[int], mixed: bool = False) -> None:
    """The strategy ``usable_strategies[key]`` picks an optimal move of subtract square (the
    starter's game, solved by the engine) from each of ``totals``."""
    expect_subtract_square_moves(worker.call("subtract_square", key, totals, mixed=mixed), key,
                                 totals)


def expect_subtract_square_moves(moves: list, key: str, totals: list[int]) -> None:
    """``moves``, the strategy's answers from ``totals``, are optimal subtract-square moves."""
    for total, move in zip(totals, moves, strict=True):
        best = SUBTRACT_SQUARE.best_moves(total)
        assert move in [str(b) for b in best], (
            f"subtract square from {total}: the {STRATEGIES[key]} strategy chose {move}; an "
            f"optimal move is one of {best}")
