"""Exact tippy rules and perfect play on plain boards (parent side, stdlib only).

A board is a sequence of n strings of length n: ``'X'`` is a p1 mark, ``'O'`` a p2 mark and
``'.'`` an empty square. Cells are ``(row, column)`` pairs counted from 0 at the top left.
Scores are for the player to move: 1 win, 0 tie, -1 loss, exactly as the handout's minimax
defines them. Solving is a memoised negamax over positions reduced by the eight symmetries of
the square, which map the set of tippies (S and Z tetrominoes, lying or standing) onto itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

EMPTY, P1_MARK, P2_MARK = ".", "X", "O"
MARK_OF = {"p1": P1_MARK, "p2": P2_MARK}
PLAYER_OF = {P1_MARK: "p1", P2_MARK: "p2"}

Cell = tuple[int, int]

# The four orientations as (row, column) offsets inside their 2 x 3 or 3 x 2 box.
SHAPES: tuple[tuple[Cell, ...], ...] = (
    ((0, 0), (0, 1), (1, 1), (1, 2)),
    ((0, 1), (0, 2), (1, 0), (1, 1)),
    ((0, 0), (1, 0), (1, 1), (2, 1)),
    ((0, 1), (1, 0), (1, 1), (2, 0)),
)


def place(shape: Iterable[Cell], top: int, left: int) -> tuple[Cell, ...]:
    """Return ``shape`` moved so that its box's top left corner is at (top, left)."""
    return tuple(sorted((top + r, left + c) for r, c in shape))


@cache
def tippies(n: int) -> tuple[tuple[Cell, ...], ...]:
    """Return every tippy placement on an n x n grid (4(n-1)(n-2) of them)."""
    found = []
    for shape in SHAPES:
        height = 1 + max(r for r, _ in shape)
        width = 1 + max(c for _, c in shape)
        for top in range(n - height + 1):
            for left in range(n - width + 1):
                found.append(place(shape, top, left))
    return tuple(found)


@cache
def _flat_tippies(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(r * n + c for r, c in t) for t in tippies(n))


@cache
def _symmetries(n: int) -> tuple[tuple[int, ...], ...]:
    """Index permutations of the flat board for the 8 symmetries of the square."""
    def index(r: int, c: int) -> int:
        return r * n + c

    maps = (
        lambda r, c: (r, c), lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c), lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r),
    )
    return tuple(tuple(index(*m(r, c)) for r in range(n) for c in range(n)) for m in maps)


def flatten(board: Sequence[str]) -> str:
    """Return the board as one string, row after row, checking its shape and marks."""
    n = len(board)
    flat = "".join(board)
    if n < 3 or len(flat) != n * n or any(len(row) != n for row in board):
        raise ValueError(f"not an n x n board with n >= 3: {board!r}")
    if set(flat) - {EMPTY, P1_MARK, P2_MARK}:
        raise ValueError(f"unknown marks in {board!r}")
    return flat


def empty_board(n: int) -> list[str]:
    """Return the empty n x n board."""
    return [EMPTY * n] * n


def play(board: Sequence[str], cell: Cell, mark: str) -> list[str]:
    """Return a copy of board with mark put on cell (which must be empty)."""
    r, c = cell
    if board[r][c] != EMPTY:
        raise ValueError(f"cell {cell} is taken in {list(board)!r}")
    rows = list(board)
    rows[r] = rows[r][:c] + mark + rows[r][c + 1 :]
    return rows


def find_tippy(board: Sequence[str], mark: str) -> tuple[Cell, ...] | None:
    """Return the first tippy made of ``mark``'s marks, or None."""
    flat = flatten(board)
    for placement, flat_cells in zip(tippies(len(board)), _flat_tippies(len(board)), strict=True):
        if all(flat[i] == mark for i in flat_cells):
            return placement
    return None


def _has_tippy(flat: str, n: int, mark: str) -> bool:
    return any(all(flat[i] == mark for i in t) for t in _flat_tippies(n))


def status(board: Sequence[str]) -> str | None:
    """Return 'p1' or 'p2' if that player has a tippy, 'tie' if the board is full, else None."""
    flat = flatten(board)
    n = len(board)
    for mark in (P1_MARK, P2_MARK):
        if _has_tippy(flat, n, mark):
            return PLAYER_OF[mark]
    return "tie" if EMPTY not in flat else None


def empty_cells(board: Sequence[str]) -> list[Cell]:
    """Return the empty cells in row-major order."""
    return [(r, c) for r, row in enumerate(board) for c, mark in enumerate(row) if mark == EMPTY]


def legal_moves(board: Sequence[str]) -> list[Cell]:
    """Return the legal moves: every empty cell, none once the game is over."""
    return [] if status(board) is not None else empty_cells(board)


def _canonical(flat: str, n: int) -> str:
    return min("".join(flat[i] for i in perm) for perm in _symmetries(n))


@cache
def _solve(canon: str, n: int, mover: str) -> int:
    other = P2_MARK if mover == P1_MARK else P1_MARK
    if _has_tippy(canon, n, other):
        return -1
    if _has_tippy(canon, n, mover):
        return 1
    if EMPTY not in canon:
        return 0
    best = -1
    for i, mark in enumerate(canon):
        if mark == EMPTY:
            child = canon[:i] + mover + canon[i + 1 :]
            best = max(best, -_solve(_canonical(child, n), n, other))
            if best == 1:
                break
    return best


def value(board: Sequence[str], player: str) -> int:
    """Return the score ``player`` ('p1' or 'p2'), about to move, can guarantee from board."""
    flat = flatten(board)
    return _solve(_canonical(flat, len(board)), len(board), MARK_OF[player])


def move_values(board: Sequence[str], player: str) -> dict[Cell, int]:
    """Return, for each legal move of ``player``, the score that move guarantees them."""
    other = "p2" if player == "p1" else "p1"
    return {
        cell: -value(play(board, cell, MARK_OF[player]), other) for cell in legal_moves(board)
    }


def best_moves(board: Sequence[str], player: str) -> set[Cell]:
    """Return the set of optimal moves for ``player`` (empty when the game is over)."""
    scores = move_values(board, player)
    if not scores:
        return set()
    top = max(scores.values())
    return {cell for cell, score in scores.items() if score == top}


def replay(n: int, cells: Iterable[Sequence[int]], first: str = "p1") -> list[str]:
    """Return the board after the players, starting with ``first``, mark ``cells`` in turn."""
    board = empty_board(n)
    player = first
    for cell in cells:
        if status(board) is not None:
            raise ValueError(f"move {cell} comes after the game is over")
        board = play(board, (cell[0], cell[1]), MARK_OF[player])
        player = "p2" if player == "p1" else "p1"
    return board
