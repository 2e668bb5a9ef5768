"""The pack's own answers (parent side), computed independently of the reference solution:
squares from ``math.isqrt`` and the won/lost positions from a table built bottom up, where
the reference searches the game tree."""

from __future__ import annotations

from functools import cache
from math import isqrt

PLAYERS = ("p1", "p2")


def moves(total: int) -> list[int]:
    """The squares at most ``total``, largest first."""
    return [root * root for root in range(isqrt(max(total, 0)), 0, -1)]


def apply(total: int, amount: int) -> int | None:
    """``total - amount`` for a legal move, else None."""
    return total - amount if amount in moves(total) else None


def is_over(total: int) -> bool:
    return total == 0


def other(player: str) -> str:
    return PLAYERS[1 - PLAYERS.index(player)]


def winner(total: int, player: str) -> str | None:
    """Who won, when ``player`` is to move at ``total``; None while the game goes on."""
    return other(player) if is_over(total) else None


@cache
def lost(total: int) -> bool:
    """Whether the player to move at ``total`` loses against perfect play."""
    won = [False] * (total + 1)
    for position in range(1, total + 1):
        won[position] = any(not won[position - square] for square in moves(position))
    return not won[total]


def best_move(total: int) -> int | None:
    """The first move, largest first, that leaves the opponent lost; else the largest."""
    options = moves(total)
    if not options:
        return None
    return next((amount for amount in options if lost(total - amount)), options[0])
