"""Exact Stonehenge oracle on plain data (parent side, stdlib only).

Positions are plain values (bitmasks), never student or reference objects, so the grader can
compute every expected answer itself: the board text, the legal moves, the winner, the rough
outcome, the minimax score of every move and the size of the plain minimax tree.

The solver is a negamax over "cells/ley-lines of the player to move" versus "of the opponent",
memoised on those four bitmasks (the game is symmetric, so the player to move needs no bit of its
own). Stonehenge has no draws: every score is 1 or -1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SIDES = range(1, 6)
WIN, LOSE, DRAW = 1, -1, 0


@dataclass(frozen=True)
class Geometry:
    """The cells and ley-lines of one board size.

    ``lines`` holds (name, cell indices) in the order h0..hn, dl0..dln, dr0..drn.
    """

    side: int
    rows: tuple[tuple[int, ...], ...]
    lines: tuple[tuple[str, tuple[int, ...]], ...]

    @property
    def cells(self) -> int:
        return sum(len(row) for row in self.rows)

    @property
    def letters(self) -> str:
        return LETTERS[: self.cells]

    def line_index(self, name: str) -> int:
        return [line for line, _ in self.lines].index(name)


@cache
def geometry(side: int) -> Geometry:
    """Cells are (row, column); the last row's columns start at 1 (its corners are cut)."""
    if side not in SIDES:
        raise ValueError(f"side length must be 1..5, not {side}")
    coords = [(r, c) for r in range(side) for c in range(r + 2)]
    coords += [(side, c) for c in range(1, side + 1)]
    rows = tuple(
        tuple(i for i, (r, _) in enumerate(coords) if r == row) for row in range(side + 1)
    )
    families = (
        ("h", lambda r, c: r),
        ("dl", lambda r, c: c),
        ("dr", lambda r, c: r + 1 - c),
    )
    lines = tuple(
        (f"{prefix}{k}", tuple(i for i, (r, c) in enumerate(coords) if key(r, c) == k))
        for prefix, key in families
        for k in range(side + 1)
    )
    return Geometry(side, rows, lines)


@dataclass(frozen=True)
class Position:
    """A Stonehenge position: bitmasks of claimed cells and captured ley-lines per player."""

    side: int
    p1_turn: bool
    p1_cells: int = 0
    p2_cells: int = 0
    p1_lines: int = 0
    p2_lines: int = 0

    @property
    def player(self) -> str:
        return "p1" if self.p1_turn else "p2"


def start(side: int, p1_starts: bool = True) -> Position:
    geometry(side)
    return Position(side, p1_starts)


def winner(pos: Position) -> str:
    """'p1' or 'p2' once a player holds at least half of the ley-lines, else ''."""
    total = 3 * (pos.side + 1)
    if 2 * pos.p1_lines.bit_count() >= total:
        return "p1"
    if 2 * pos.p2_lines.bit_count() >= total:
        return "p2"
    return ""


def moves(pos: Position) -> list[str]:
    """Letters of the free cells in order, or [] once the game is over."""
    if winner(pos):
        return []
    taken = pos.p1_cells | pos.p2_cells
    return [
        letter for i, letter in enumerate(geometry(pos.side).letters) if not taken >> i & 1
    ]


def play(pos: Position, letter: str) -> Position:
    """The position after the player to move claims the cell ``letter``."""
    if letter not in moves(pos):
        raise ValueError(f"{letter!r} is not a legal move")
    geo = geometry(pos.side)
    index = geo.letters.index(letter)
    mine = (pos.p1_cells if pos.p1_turn else pos.p2_cells) | 1 << index
    claimed = pos.p1_lines | pos.p2_lines
    captured = 0
    for k, (_, members) in enumerate(geo.lines):
        held = sum(1 for i in members if mine >> i & 1)
        if index in members and not claimed >> k & 1 and 2 * held >= len(members):
            captured |= 1 << k
    if pos.p1_turn:
        return replace(pos, p1_turn=False, p1_cells=mine, p1_lines=pos.p1_lines | captured)
    return replace(pos, p1_turn=True, p2_cells=mine, p2_lines=pos.p2_lines | captured)


def replay(side: int, p1_starts: bool, sequence: list[str] | str) -> Position:
    """The position reached from the empty board by playing ``sequence`` (letters)."""
    pos = start(side, p1_starts)
    for letter in sequence:
        pos = play(pos, letter)
    return pos


def trace(side: int, p1_starts: bool, sequence: list[str] | str) -> list[Position]:
    """The start position and the position after each move of ``sequence``."""
    positions = [start(side, p1_starts)]
    for letter in sequence:
        positions.append(play(positions[-1], letter))
    return positions


def _cell_mark(pos: Position, index: int, letter: str) -> str:
    if pos.p1_cells >> index & 1:
        return "1"
    if pos.p2_cells >> index & 1:
        return "2"
    return letter


def _line_mark(pos: Position, name: str) -> str:
    k = geometry(pos.side).line_index(name)
    if pos.p1_lines >> k & 1:
        return "1"
    if pos.p2_lines >> k & 1:
        return "2"
    return "@"


def render(pos: Position) -> str:
    """The board exactly as the handout draws it (no trailing spaces, no final newline)."""
    n, geo = pos.side, geometry(pos.side)
    mark = {name: _line_mark(pos, name) for name, _ in geo.lines}
    cells = [[_cell_mark(pos, i, geo.letters[i]) for i in row] for row in geo.rows]
    out = [" " * (2 * n + 4) + f"{mark['dl0']}   {mark['dl1']}", " " * (2 * n + 3) + "/   /"]
    for r in range(n):
        text = " " * (2 * (n - 1 - r)) + " - ".join([mark[f"h{r}"], *cells[r]])
        if r < n - 1:
            out.append(f"{text}   {mark[f'dl{r + 2}']}")
            out.append(" " * (2 * (n - 2 - r) + 5) + "/ \\ " * (r + 2) + "/")
        else:
            out.append(text)
            out.append(" " * 5 + "\\ / " * n + "\\")
    out.append("  " + " - ".join([mark[f"h{n}"], *cells[n]]) + f"   {mark['dr0']}")
    out.append(" " * 7 + "   ".join(["\\"] * n))
    out.append(" " * 8 + "   ".join(mark[f"dr{k}"] for k in range(n, 0, -1)))
    return "\n".join(out)


def tokens(board: str) -> list[list[str]]:
    """Token-wise view of a board: per line, its runs of letters, digits or '@'.

    Anything else separates tokens (spaces, ``-``, ``|``, brackets), so ``@ - A - B``,
    ``@-A-B`` and ``@ | A | B`` read the same; lines holding no token (the connector art)
    are dropped. Markers, cells and their order are graded; spacing and separators are not.
    """
    kept = [_TOKEN.findall(line) for line in board.splitlines()]
    return [line for line in kept if line]


_TOKEN = re.compile(r"[A-Za-z0-9@]+")


class _Solver:
    """Negamax with memo for one board size (bitmask internals)."""

    def __init__(self, side: int) -> None:
        geo = geometry(side)
        self.cells = geo.cells
        self.total_lines = len(geo.lines)
        self.cell_lines: list[list[tuple[int, int, int]]] = [[] for _ in range(geo.cells)]
        for k, (_, members) in enumerate(geo.lines):
            mask = sum(1 << i for i in members)
            for i in members:
                self.cell_lines[i].append((1 << k, mask, len(members)))
        self.memo: dict[tuple[int, int, int, int], int] = {}
        self.sizes: dict[tuple[int, int, int, int], int] = {}

    def child(self, mine: int, lines: int, claimed: int, index: int) -> tuple[int, int]:
        """The mover's cells and lines after claiming cell ``index``."""
        mine |= 1 << index
        for bit, mask, length in self.cell_lines[index]:
            if not claimed & bit and 2 * (mine & mask).bit_count() >= length:
                lines |= bit
        return mine, lines

    def won(self, lines: int) -> bool:
        return 2 * lines.bit_count() >= self.total_lines

    def free(self, mine: int, theirs: int) -> list[int]:
        taken = mine | theirs
        return [i for i in range(self.cells) if not taken >> i & 1]

    def score(self, mine: int, theirs: int, my_lines: int, their_lines: int) -> int:
        """Score for the player to move (owner of ``mine``)."""
        if self.won(their_lines):
            return LOSE
        if self.won(my_lines):
            return WIN
        key = (mine, theirs, my_lines, their_lines)
        if key in self.memo:
            return self.memo[key]
        free = self.free(mine, theirs)
        best = LOSE if free else DRAW
        claimed = my_lines | their_lines
        for index in free:
            cells, lines = self.child(mine, my_lines, claimed, index)
            value = WIN if self.won(lines) else -self.score(theirs, cells, their_lines, lines)
            best = max(best, value)
            if best == WIN:
                break
        self.memo[key] = best
        return best

    def size(self, mine: int, theirs: int, my_lines: int, their_lines: int) -> int:
        """Nodes of the plain (unpruned, unmemoised) minimax tree below this position."""
        if self.won(their_lines) or self.won(my_lines):
            return 1
        key = (mine, theirs, my_lines, their_lines)
        if key not in self.sizes:
            claimed = my_lines | their_lines
            total = 1
            for index in self.free(mine, theirs):
                cells, lines = self.child(mine, my_lines, claimed, index)
                total += self.size(theirs, cells, their_lines, lines)
            self.sizes[key] = total
        return self.sizes[key]


@cache
def _solver(side: int) -> _Solver:
    return _Solver(side)


def _mover_view(pos: Position) -> tuple[int, int, int, int]:
    if pos.p1_turn:
        return pos.p1_cells, pos.p2_cells, pos.p1_lines, pos.p2_lines
    return pos.p2_cells, pos.p1_cells, pos.p2_lines, pos.p1_lines


def solve(pos: Position) -> int:
    """Minimax score of ``pos`` for the player to move: WIN or LOSE (DRAW never happens)."""
    return _solver(pos.side).score(*_mover_view(pos))


def move_scores(pos: Position) -> dict[str, int]:
    """The score each legal move guarantees the player to move."""
    return {letter: -solve(play(pos, letter)) for letter in moves(pos)}


def best_moves(pos: Position) -> list[str]:
    """Every legal move with the optimal score (any of them is a correct minimax answer)."""
    scores = move_scores(pos)
    if not scores:
        return []
    top = max(scores.values())
    return [letter for letter, value in scores.items() if value == top]


def tree_size(pos: Position) -> int:
    """How many states a plain minimax visits from ``pos`` (the cost a student's code pays)."""
    return _solver(pos.side).size(*_mover_view(pos))


def rough_outcome(pos: Position) -> int:
    """The handout's estimate: WIN/LOSE if decided now or in one move, LOSE if every move lets
    the opponent win at once, else DRAW."""
    decided = winner(pos)
    if decided:
        return WIN if decided == pos.player else LOSE
    children = [play(pos, letter) for letter in moves(pos)]
    if any(winner(child) == pos.player for child in children):
        return WIN
    if all(_wins_at_once(child) for child in children):
        return LOSE
    return DRAW


def _wins_at_once(pos: Position) -> bool:
    return any(winner(play(pos, letter)) == pos.player for letter in moves(pos))


@cache
def square_scores(limit: int) -> tuple[int, ...]:
    """Subtract-square minimax scores (for the player to move) of totals 0..limit."""
    scores = [LOSE]
    for total in range(1, limit + 1):
        squares = [k * k for k in range(1, int(total**0.5) + 2) if k * k <= total]
        scores.append(WIN if any(scores[total - s] == LOSE for s in squares) else LOSE)
    return tuple(scores)


def square_best_moves(total: int) -> list[int]:
    """Every subtract-square move from ``total`` with the optimal score."""
    scores = square_scores(total)
    squares = [k * k for k in range(1, total + 1) if k * k <= total]
    values = {s: -scores[total - s] for s in squares}
    top = max(values.values())
    return [s for s, value in values.items() if value == top]
