"""Seeded tippy test positions, as move lists the driver can replay (parent side, stdlib only).

Every game starts from the empty board with p1 (X) to move and alternates; a game is the list of
squares ``[row, column]`` marked in turn. All functions are pure: the same arguments give the
same games, checked against the exact rules in ``oracle``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from graders.packs.tippy import oracle

Cells = list[list[int]]

# Four-square shapes that are NOT tippies (the other tetrominoes), as (row, column) offsets.
NON_TIPPY_SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "square": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "T down": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "T up": ((0, 1), (1, 0), (1, 1), (1, 2)),
    "T right": ((0, 0), (1, 0), (1, 1), (2, 0)),
    "T left": ((0, 1), (1, 0), (1, 1), (2, 1)),
    "L": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "L flipped": ((0, 1), (1, 1), (2, 1), (2, 0)),
    "L top": ((0, 0), (0, 1), (1, 0), (2, 0)),
    "L top flipped": ((0, 0), (0, 1), (1, 1), (2, 1)),
    "L lying": ((0, 0), (0, 1), (0, 2), (1, 0)),
    "L lying right": ((0, 0), (0, 1), (0, 2), (1, 2)),
    "L lying up": ((0, 2), (1, 0), (1, 1), (1, 2)),
    "L lying up left": ((0, 0), (1, 0), (1, 1), (1, 2)),
}


def _lines(n: int) -> dict[str, tuple[tuple[int, int], ...]]:
    """Straight lines of min(n, 4) squares: a row, a column and both diagonals."""
    k = min(n, 4)
    return {
        "row": tuple((0, c) for c in range(k)),
        "column": tuple((r, 0) for r in range(k)),
        "diagonal": tuple((i, i) for i in range(k)),
        "anti-diagonal": tuple((i, k - 1 - i) for i in range(k)),
    }


def _interleave(mine: Sequence[tuple[int, int]], theirs: Sequence[tuple[int, int]]) -> Cells:
    """Alternate the two lists, starting with ``mine``."""
    moves: Cells = []
    for i, cell in enumerate(mine):
        moves.append(list(cell))
        if i < len(theirs):
            moves.append(list(theirs[i]))
    return moves


def _fillers(n: int, avoid: Iterable[tuple[int, int]], count: int, rng: random.Random):
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in set(avoid)]
    return rng.sample(free, count)


def _makes_tippy(n: int, cells: Iterable[tuple[int, int]]) -> bool:
    board = oracle.empty_board(n)
    for cell in cells:
        board = oracle.play(board, cell, oracle.P1_MARK)
    return oracle.find_tippy(board, oracle.P1_MARK) is not None


def _check(n: int, cells: Cells, before_last: str | None, after: str | None) -> Cells:
    """Return cells after checking the status before the last move and after all of them."""
    assert oracle.status(oracle.replay(n, cells[:-1])) == before_last, cells
    assert oracle.status(oracle.replay(n, cells)) == after, cells
    return cells


def tippy_games(n: int, winner: str = "p1") -> list[tuple[tuple[tuple[int, int], ...], Cells]]:
    """Return (tippy, game) for every tippy placement: ``winner`` completes it on the last move.

    The loser's three or four marks stay off the tippy; which square completes the tippy
    changes from placement to placement.
    """
    rng = random.Random(f"tippy-{n}-{winner}")
    games = []
    for index, tippy in enumerate(oracle.tippies(n)):
        order = list(tippy[index % 4 :] + tippy[: index % 4])
        if winner == "p1":
            cells = _interleave(order, _fillers(n, tippy, 3, rng))
        else:
            others = _fillers(n, tippy, 4, rng)
            while _makes_tippy(n, others):
                others = _fillers(n, tippy, 4, rng)
            cells = _interleave(others, order)
        games.append((tippy, _check(n, cells, None, winner)))
    return games


def non_tippy_games(n: int) -> list[tuple[str, Cells]]:
    """Return (shape name, game) where p1 marks a non-tippy shape; the game goes on.

    Each shape appears at the top left corner and at one seeded random offset.
    """
    rng = random.Random(f"shapes-{n}")
    shapes = dict(NON_TIPPY_SHAPES, **_lines(n))
    games = []
    for name, shape in shapes.items():
        height = 1 + max(r for r, _ in shape)
        width = 1 + max(c for _, c in shape)
        offsets = {(0, 0), (rng.randrange(n - height + 1), rng.randrange(n - width + 1))}
        for top, left in sorted(offsets):
            mine = oracle.place(shape, top, left)
            cells = _interleave(mine, _fillers(n, mine, len(mine) - 1, rng))
            games.append((f"{name} at ({top}, {left})", _check(n, cells, None, None)))
    return games


def tie_game(n: int, seed: int = 0) -> Cells:
    """Return a game that fills the whole board with no tippy for either player.

    Every tippy holds two side-by-side squares (and, turned, two stacked ones), so a board whose
    rows (or columns) alternate X and O has none. Rows start with X or O at random, with as
    many X as p1 gets on a full board; the move order is random too.
    """
    rng = random.Random(f"tie-{n}-{seed}")
    starts = [r < (n + 1) // 2 for r in range(n)]
    rng.shuffle(starts)
    turn = rng.random() < 0.5
    xs: list[tuple[int, int]] = []
    os: list[tuple[int, int]] = []
    for r in range(n):
        for c in range(n):
            cell = (c, r) if turn else (r, c)
            (xs if (c % 2 == 0) == starts[r] else os).append(cell)
    rng.shuffle(xs)
    rng.shuffle(os)
    return _check(n, _interleave(xs, os), None, "tie")


def random_game(n: int, seed: int, stop_at_empty: int = 0) -> Cells:
    """Return a game of random moves, until it is over or ``stop_at_empty`` squares are left."""
    rng = random.Random(f"game-{n}-{seed}")
    board, cells, player = oracle.empty_board(n), [], "p1"
    while oracle.status(board) is None and len(oracle.empty_cells(board)) > stop_at_empty:
        cell = rng.choice(oracle.empty_cells(board))
        cells.append(list(cell))
        board = oracle.play(board, cell, oracle.MARK_OF[player])
        player = "p2" if player == "p1" else "p1"
    return cells


def minimax_positions(n: int, empty: int, count: int, seed: int = 0, value: int | None = None):
    """Return ``count`` positions with ``empty`` squares left, game not over, as dicts.

    Each has "cells", "board", "player" (to move), "value" (their guaranteed score), "best"
    (optimal squares) and "moves" (legal squares). Only positions where some legal move is NOT
    optimal are kept, so a careless choice can fail. ``value`` keeps one kind only.
    """
    found: list[dict] = []
    attempt = 0
    while len(found) < count:
        attempt += 1
        assert attempt < 100 * count + 1000, "too few positions of that kind"
        cells = random_game(n, seed * 100_000 + attempt, stop_at_empty=empty)
        board = oracle.replay(n, cells)
        if oracle.status(board) is not None or len(oracle.empty_cells(board)) != empty:
            continue
        player = "p1" if len(cells) % 2 == 0 else "p2"
        scores = oracle.move_values(board, player)
        best = max(scores.values())
        if (value is not None and best != value) or min(scores.values()) == best:
            continue
        found.append({
            "cells": cells, "board": board, "player": player, "value": best,
            "best": sorted([r, c] for (r, c), s in scores.items() if s == best),
            "moves": sorted([r, c] for r, c in scores),
        })
    return found
