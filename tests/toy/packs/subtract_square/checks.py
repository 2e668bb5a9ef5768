"""What the student's functions must answer (parent side): each check calls one driver
operation on a worker and compares the plain answer with the oracle's."""

from __future__ import annotations

from typing import Any

from graders.testing import expect_equal

from . import oracle


def expect_moves(worker: Any, total: int) -> None:
    expect_equal(worker.call("moves", total), oracle.moves(total),
                 what=f"moves({total}) (the squares at most {total}, largest first)")


def expect_apply(worker: Any, total: int, amount: int) -> None:
    want = oracle.apply(total, amount)
    why = "a legal move" if want is not None else "not a legal move: None"
    expect_equal(worker.call("apply", total, amount), want,
                 what=f"apply({total}, {amount}) ({why})")


def expect_is_over(worker: Any, total: int) -> None:
    expect_equal(worker.call("is_over", total), oracle.is_over(total), what=f"is_over({total})")


def expect_winner(worker: Any, total: int, player: str) -> None:
    expect_equal(worker.call("winner", total, player), oracle.winner(total, player),
                 what=f"winner({total}, {player!r})")


def expect_best_move(worker: Any, total: int) -> None:
    expect_equal(worker.call("best_move", total), oracle.best_move(total),
                 what=f"best_move({total}) (the first move, largest first, after which the "
                 "opponent cannot win; None when the game is over)")
