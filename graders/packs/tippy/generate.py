"""Seeded tippy positions: a game is the squares [row, column] marked in turn, p1 (X) first.

Pure functions, called by the tests (never at import); each game is checked against ``oracle``.
The same arguments always give the same games, so each is made once per grading process
(:func:`graders.kept.made_once`) and every student's tests get a fresh copy of it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from graders.kept import made_once
from graders.packs.tippy import oracle
from graders.solver import sample

Cells = list[list[int]]

# The other tetrominoes, which are NOT tippies (drawn as ``oracle.PICTURES`` are).
NON_TIPPY_SHAPES = {
    "square": "##/##", "T down": "###/.#", "T up": ".#/###", "T right": "#/##/#",
    "T left": ".#/##/.#", "L": "#/#/##", "L flipped": ".#/.#/##", "L top": "##/#/#",
    "L top flipped": "##/.#/.#", "L lying": "###/#", "L lying right": "###/..#",
    "L lying up": "..#/###", "L lying up left": "#/###",
}


def _lines(n: int) -> dict[str, tuple[tuple[int, int], ...]]:
    """Straight lines of min(n, 4) squares: a row, a column and both diagonals."""
    k = min(n, 4)
    return {"row": tuple((0, c) for c in range(k)), "column": tuple((r, 0) for r in range(k)),
            "diagonal": tuple((i, i) for i in range(k)),
            "anti-diagonal": tuple((i, k - 1 - i) for i in range(k))}


def _interleave(mine: Sequence[tuple[int, int]], theirs: Sequence[tuple[int, int]]) -> Cells:
    """Alternate the two lists, starting with ``mine``."""
    moves: Cells = []
    for i, cell in enumerate(mine):
        moves += [list(cell)] + ([list(theirs[i])] if i < len(theirs) else [])
    return moves


def _fillers(n: int, avoid, count: int, rng: random.Random):
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in set(avoid)]
    return rng.sample(free, count)


def _check(n: int, cells: Cells, before_last: str | None, after: str | None) -> Cells:
    assert oracle.status(oracle.replay(n, cells[:-1])) == before_last, cells
    assert oracle.status(oracle.replay(n, cells)) == after, cells
    return cells


@made_once
def tippy_games(n: int, winner: str = "p1") -> list[tuple[tuple[tuple[int, int], ...], Cells]]:
    """(tippy, game) for every tippy placement: ``winner`` completes it on the last move,
    through a different square from placement to placement; the loser's marks stay off it."""
    rng = random.Random(f"tippy-{n}-{winner}")
    games = []
    for index, tippy in enumerate(oracle.tippies(n)):
        order = list(tippy[index % 4:] + tippy[:index % 4])
        if winner == "p1":
            cells = _interleave(order, _fillers(n, tippy, 3, rng))
        else:
            others = _fillers(n, tippy, 4, rng)
            while any(set(t) <= set(others) for t in oracle.tippies(n)):  # no X tippy
                others = _fillers(n, tippy, 4, rng)
            cells = _interleave(others, order)
        games.append((tippy, _check(n, cells, None, winner)))
    return games


@made_once
def non_tippy_games(n: int) -> list[tuple[str, Cells]]:
    """(shape name, game) where p1 marks a non-tippy shape, at the top left corner and at a
    seeded offset; the game goes on."""
    rng = random.Random(f"shapes-{n}")
    games = []
    shapes = {name: oracle.drawn(picture) for name, picture in NON_TIPPY_SHAPES.items()}
    for name, shape in dict(shapes, **_lines(n)).items():
        height, width = 1 + max(r for r, _ in shape), 1 + max(c for _, c in shape)
        offsets = {(0, 0), (rng.randrange(n - height + 1), rng.randrange(n - width + 1))}
        for top, left in sorted(offsets):
            mine = oracle.place(shape, top, left)
            cells = _interleave(mine, _fillers(n, mine, len(mine) - 1, rng))
            games.append((f"{name} at ({top}, {left})", _check(n, cells, None, None)))
    return games


@made_once
def tie_game(n: int, seed: int = 0) -> Cells:
    """A game filling the board with no tippy: rows (or columns) alternate X and O, and every
    tippy holds two side-by-side squares (turned, two stacked ones). Random move order."""
    rng = random.Random(f"tie-{n}-{seed}")
    starts = [r < (n + 1) // 2 for r in range(n)]
    rng.shuffle(starts)
    turn = rng.random() < 0.5
    marks: dict[bool, list[tuple[int, int]]] = {True: [], False: []}
    for r in range(n):
        for c in range(n):
            marks[(c % 2 == 0) == starts[r]].append((c, r) if turn else (r, c))
    rng.shuffle(marks[True])
    rng.shuffle(marks[False])
    return _check(n, _interleave(marks[True], marks[False]), None, "tie")


@made_once
def random_game(n: int, seed: int, stop_at_empty: int = 0) -> Cells:
    """Random moves until the game is over or ``stop_at_empty`` squares are left."""
    return _random_line(random.Random(f"game-{n}-{seed}"), n, stop_at_empty)


def _random_line(rng: random.Random, n: int, stop_at_empty: int) -> Cells:
    line, _ = oracle.SOLVER.random_line(
        rng, oracle.solver_state(oracle.empty_board(n), "p1"),
        stop=lambda state: state[0].count(oracle.EMPTY) <= stop_at_empty)
    return [list(cell) for cell in line]


def until_over(n: int, order: Sequence[tuple[int, int]]) -> Cells:
    """The squares of ``order`` marked in turn until the game is over."""
    board, played = oracle.empty_board(n), Cells()
    for cell in order:
        if oracle.status(board) is not None:
            break
        board = oracle.play(board, cell, "XO"[len(played) % 2])
        played.append(list(cell))
    return played


@made_once
def minimax_positions(n: int, empty: int, count: int, seed: int = 0, value: int | None = None):
    """``count`` unfinished positions with ``empty`` squares left where some legal move is not
    optimal (of value ``value`` only, if given), each a random game of its own (``random_game``
    of seed ``seed * 100_000 + attempt``): dicts of "cells", "board", "player" (to move),
    "value" (theirs), "best" and "moves" (squares)."""
    def draw(rng: random.Random, _: int) -> dict | None:
        cells = _random_line(rng, n, empty)
        board = oracle.replay(n, cells)
        if oracle.status(board) is not None or "".join(board).count(oracle.EMPTY) != empty:
            return None
        player = "p1" if len(cells) % 2 == 0 else "p2"
        scores = oracle.move_values(board, player)
        best = max(scores.values())
        if (value is not None and best != value) or min(scores.values()) == best:
            return None
        return {"cells": cells, "board": board, "player": player, "value": best,
                "best": sorted([r, c] for (r, c), s in scores.items() if s == best),
                "moves": sorted([r, c] for r, c in scores)}
    seeds = (f"game-{n}-{seed * 100_000 + attempt}" for attempt in itertools.count(1))
    return sample(draw, count, seeds)
