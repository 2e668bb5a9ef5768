"""Seeded generators of Stonehenge test data (parent side, pure functions, stdlib only).

Everything is derived from ``random.Random(seed)``, so a seed always gives the same data and a
submission gets the same mark on every run. Positions are plain dicts
(``{"side", "p1_starts", "moves"}``) that both the oracle and the driver understand.
"""

from __future__ import annotations

import random
from typing import Any

from graders.kept import made_once
from graders.packs.stonehenge import oracle

# Counting the plain minimax tree is only affordable once few cells are free.
_COUNTABLE_FREE = 8


def random_game(rng: random.Random, side: int, p1_starts: bool) -> list[str]:
    """A random legal move sequence from the empty board to the end of the game."""
    pos, sequence = oracle.start(side, p1_starts), []
    while oracle.moves(pos):
        letter = rng.choice(oracle.moves(pos))
        sequence.append(letter)
        pos = oracle.play(pos, letter)
    return sequence


def games(seed: int, count: int, sides: tuple[int, ...] = (1, 2, 3, 4, 5)) -> list[dict[str, Any]]:
    """``count`` random complete games, cycling through ``sides``."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        side, p1_starts = sides[i % len(sides)], rng.random() < 0.5
        out.append({"side": side, "p1_starts": p1_starts,
                    "moves": random_game(rng, side, p1_starts)})
    return out


def _free(pos: oracle.Position) -> int:
    return oracle.geometry(pos.side).cells - (pos.p1_cells | pos.p2_cells).bit_count()


def _is_discriminating(pos: oracle.Position, min_tree: int, max_tree: int) -> bool:
    """Small enough for plain minimax, and a wrong move choice is detectable: some legal
    move is not optimal, and the optimal one is not a one-move win (so depth matters)."""
    size = oracle.tree_size(pos)
    if not min_tree <= size <= max_tree:
        return False
    best = oracle.best_moves(pos)
    if len(best) == len(oracle.moves(pos)):
        return False
    return oracle.rough_outcome(pos) != oracle.WIN


@made_once
def search_positions(
    seed: int,
    count: int,
    sides: tuple[int, ...] = (2, 3, 4, 5),
    min_tree: int = 30,
    max_tree: int = 2000,
) -> list[dict[str, Any]]:
    """``count`` unfinished positions on which a plain minimax answers quickly and only some
    moves are optimal. Each carries its expected answer (``best``) and its ``tree`` size."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        side, p1_starts = sides[len(out) % len(sides)], rng.random() < 0.5
        pos, sequence = oracle.start(side, p1_starts), list[str]()
        while oracle.moves(pos):
            if _free(pos) <= _COUNTABLE_FREE and _is_discriminating(pos, min_tree, max_tree):
                out.append({
                    "side": side, "p1_starts": p1_starts, "moves": sequence,
                    "tree": oracle.tree_size(pos), "best": oracle.best_moves(pos),
                })
                break
            letter = rng.choice(oracle.moves(pos))
            sequence = [*sequence, letter]
            pos = oracle.play(pos, letter)
    return out


def transpositions(seed: int, count: int, side: int = 3) -> list[dict[str, Any]]:
    """Pairs of move orders that reach the same position (same board, same player to move)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        p1_starts = rng.random() < 0.5
        first = random_game(rng, side, p1_starts)[: rng.randint(3, 6)]
        second = _reorder(rng, first)
        if second is None:
            continue
        try:
            a, b = oracle.replay(side, p1_starts, first), oracle.replay(side, p1_starts, second)
        except ValueError:  # the other order ends the game before its last move
            continue
        if oracle.moves(a) and oracle.render(a) == oracle.render(b):
            out.append({"side": side, "p1_starts": p1_starts, "first": first, "second": second})
    return out


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
