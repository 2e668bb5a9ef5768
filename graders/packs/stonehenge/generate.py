"""Seeded generators of Stonehenge test data (parent side, pure functions, stdlib only).

Everything is drawn from a seed by the engine's :func:`graders.solver.sample`, so a seed always
gives the same data and a submission gets the same mark on every run. Positions are plain
dicts (``{"side", "p1_starts", "moves"}``) that both the oracle and the driver understand.
"""

from __future__ import annotations

import random
from typing import Any

from graders.kept import made_once
from graders.packs.stonehenge import oracle
from graders.solver import sample

# Counting the plain minimax tree is only affordable once few cells are free.
_COUNTABLE_FREE = 8


def random_game(rng: random.Random, side: int, p1_starts: bool) -> list[str]:
    """A random legal move sequence from the empty board to the end of the game."""
    return oracle.SOLVER.random_line(rng, oracle.start(side, p1_starts))[0]


def games(seed: int, count: int, sides: tuple[int, ...] = (1, 2, 3, 4, 5)) -> list[dict[str, Any]]:
    """``count`` random complete games, cycling through ``sides``."""
    def draw(rng: random.Random, index: int) -> dict[str, Any]:
        side, p1_starts = sides[index % len(sides)], rng.random() < 0.5
        return {"side": side, "p1_starts": p1_starts, "moves": random_game(rng, side, p1_starts)}
    return sample(draw, count, seed)


def _is_discriminating(pos: oracle.Position, min_tree: int, max_tree: int) -> bool:
    """Small enough for plain minimax, and a wrong move choice is detectable: some legal
    move is not optimal, and the optimal one is not a one-move win (so depth matters)."""
    legal = oracle.moves(pos)  # a finished game has none, and a tree of one state
    if len(legal) > _COUNTABLE_FREE or not min_tree <= oracle.tree_size(pos) <= max_tree:
        return False
    return len(oracle.best_moves(pos)) < len(legal) and oracle.rough_outcome(pos) != oracle.WIN


# The handout's two minimax positions: its side-3 board where only H wins, and side 2 after
# A F D (E is the one optimal move).
SPEC_POSITIONS = (
    {"side": 3, "p1_starts": False, "moves": list("KACBFEGDI"), "from": "spec"},
    {"side": 2, "p1_starts": True, "moves": list("AFD"), "from": "spec"},
)


@made_once
def search_positions(
    seed: int,
    count: int,
    sides: tuple[int, ...] = (2, 3, 4, 5),
    min_tree: int = 30,
    max_tree: int = 2000,
) -> list[dict[str, Any]]:
    """``count`` unfinished positions on which a plain minimax answers quickly and only some
    moves are optimal, each the first such on a random game (a game that ends first is
    redrawn). Each carries its expected answer (``best``) and its ``tree`` size."""
    def draw(rng: random.Random, index: int) -> dict[str, Any] | None:
        side, p1_starts = sides[index % len(sides)], rng.random() < 0.5
        sequence, pos = oracle.SOLVER.random_line(
            rng, oracle.start(side, p1_starts),
            stop=lambda at: _is_discriminating(at, min_tree, max_tree))
        if not oracle.moves(pos):
            return None
        return {"side": side, "p1_starts": p1_starts, "moves": sequence,
                "tree": oracle.tree_size(pos), "best": oracle.best_moves(pos)}
    return sample(draw, count, seed)


def transpositions(seed: int, count: int, side: int = 3) -> list[dict[str, Any]]:
    """Pairs of move orders that reach the same position (same board, same player to move)."""
    def draw(rng: random.Random, _: int) -> dict[str, Any] | None:
        p1_starts = rng.random() < 0.5
        first = random_game(rng, side, p1_starts)[: rng.randint(3, 6)]
        second = _reorder(rng, first)
        if second is None:
            return None
        try:
            a, b = oracle.replay(side, p1_starts, first), oracle.replay(side, p1_starts, second)
        except ValueError:  # the other order ends the game before its last move
            return None
        if oracle.moves(a) and oracle.render(a) == oracle.render(b):
            return {"side": side, "p1_starts": p1_starts, "first": first, "second": second}
        return None
    return sample(draw, count, seed)


def _reorder(rng: random.Random, sequence: list[str]) -> list[str] | None:
    """The same moves per player, in another order (None when no other order exists)."""
    mine, theirs = sequence[0::2], sequence[1::2]
    for _ in range(10):
        a, b = rng.sample(mine, len(mine)), rng.sample(theirs, len(theirs))
        merged = [m for pair in zip(a, b, strict=False) for m in pair]
        merged += a[len(b):]
        if merged != sequence:
            return merged
    return None
