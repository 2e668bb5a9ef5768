"""What a correct tippy submission answers, from the oracle, in the driver's plain format.

Parent side: used by the grader tests to build expected values and readable failure texts.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import cache
from typing import Any

from graders.packs.tippy import oracle
from graders.testing import expect_equal

# The parts of a driver summary a correct game must match exactly.
COMPARED = ("board", "over", "next_player", "winner", "outcome", "moves")


def to_move(cells: Sequence[Any]) -> str:
    """The player to move after ``cells`` were marked from the start (p1 first)."""
    return "p1" if len(cells) % 2 == 0 else "p2"


def summary(n: int, cells: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The driver summary a correct game gives after ``cells`` (a fresh copy each call)."""
    return copy.deepcopy(_summary(n, tuple((r, c) for r, c in cells)))


@cache
def _summary(n: int, cells: tuple[tuple[int, int], ...]) -> dict[str, Any]:
    board = oracle.replay(n, cells)
    status = oracle.status(board)
    player = to_move(cells)
    other = "p2" if player == "p1" else "p1"
    winner = {"p1": status == "p1", "p2": status == "p2"}
    outcome = 1.0 if winner[player] else -1.0 if winner[other] else 0.0
    return {
        "board": board, "over": status is not None, "next_player": player, "winner": winner,
        "outcome": outcome, "moves": [list(c) for c in oracle.legal_moves(board)],
    }


def equal(actual: Any, expected: Any, *, what: str) -> None:
    """Fail with a field-by-field diff unless equal (numbers compare by value, so 1 == 1.0)."""
    expect_equal(actual, expected, what=what, numbers_loosely=True)


def pick(found: dict[str, Any], keys: Sequence[str] = COMPARED) -> dict[str, Any]:
    """The compared parts of a driver summary."""
    return {key: found.get(key) for key in keys}


def picture(board: Sequence[str] | None) -> str:
    """A board as text lines for messages: 'X' p1, 'O' p2, '.' empty."""
    return " / ".join(board) if board else "(board could not be read)"


def game_text(cells: Sequence[Sequence[int]]) -> str:
    """'X(0,0) O(1,1) X(0,1)' for a move list starting with p1."""
    marks = "XO"
    return " ".join(f"{marks[i % 2]}({r},{c})" for i, (r, c) in enumerate(cells)) or "(no move)"


@cache
def subtract_square_wins(total: int) -> bool:
    """Whether the player to move wins subtract square from ``total``."""
    return any(not subtract_square_wins(total - k * k) for k in range(1, int(total**0.5) + 1))


def subtract_square_best(total: int) -> set[int]:
    """The amounts that keep a win (every amount, when none does)."""
    amounts = [k * k for k in range(1, int(total**0.5) + 1)]
    winning = {a for a in amounts if not subtract_square_wins(total - a)}
    return winning or set(amounts)
