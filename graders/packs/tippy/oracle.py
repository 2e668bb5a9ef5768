"""Exact tippy rules and perfect play on plain boards, independent of the reference.

A board is n strings of n marks: 'X' p1, 'O' p2, '.' empty; cells are (row, column) from 0.
Scores are for the player to move: 1 win, 0 tie, -1 loss (the handout's minimax), from the
engine's negamax (graders/solver.py) over these rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from graders.solver import DRAW, LOSE, WIN, Negamax

EMPTY, P1_MARK, P2_MARK = ".", "X", "O"
MARK_OF = {"p1": P1_MARK, "p2": P2_MARK}
PLAYER_OF = {P1_MARK: "p1", P2_MARK: "p2"}

Cell = tuple[int, int]
State = tuple[str, int, str]

# The four orientations (S and Z, lying and standing), drawn row by row: '#' a square of the
# tippy, '/' between rows.
PICTURES = ("##/.##", ".##/##", "#/##/.#", ".#/##/#")


def drawn(picture: str) -> tuple[Cell, ...]:
    """The (row, column) offsets of a shape drawn as ``picture``."""
    return tuple((r, c) for r, row in enumerate(picture.split("/"))
                 for c, mark in enumerate(row) if mark == "#")


SHAPES = tuple(drawn(picture) for picture in PICTURES)


def place(shape: Iterable[Cell], top: int, left: int) -> tuple[Cell, ...]:
    """``shape`` moved so that its box's top left corner is at (top, left)."""
    return tuple(sorted((top + r, left + c) for r, c in shape))


@cache
def tippies(n: int) -> tuple[tuple[Cell, ...], ...]:
    """Every tippy placement on an n x n grid (4(n-1)(n-2) of them)."""
    return tuple(place(shape, top, left) for shape in SHAPES
                 for top in range(n - max(r for r, _ in shape))
                 for left in range(n - max(c for _, c in shape)))


def _flat(board: Sequence[str]) -> str:
    n, flat = len(board), "".join(board)
    if n < 3 or any(len(row) != n for row in board) or set(flat) - {EMPTY, P1_MARK, P2_MARK}:
        raise ValueError(f"not an n x n board with n >= 3: {board!r}")
    return flat


def empty_board(n: int) -> list[str]:
    """The empty n x n board."""
    return [EMPTY * n] * n


def play(board: Sequence[str], cell: Cell, mark: str) -> list[str]:
    """A copy of board with mark put on cell (which must be empty)."""
    r, c = cell
    if board[r][c] != EMPTY:
        raise ValueError(f"cell {cell} is taken in {list(board)!r}")
    rows = list(board)
    rows[r] = rows[r][:c] + mark + rows[r][c + 1:]
    return rows


def _tippy_in(flat: str, n: int, mark: str) -> tuple[Cell, ...] | None:
    return next((t for t in tippies(n) if all(flat[r * n + c] == mark for r, c in t)), None)


def find_tippy(board: Sequence[str], mark: str) -> tuple[Cell, ...] | None:
    """The first tippy made of ``mark``'s marks, or None."""
    return _tippy_in(_flat(board), len(board), mark)


def _status(flat: str, n: int) -> str | None:
    for mark in (P1_MARK, P2_MARK):
        if _tippy_in(flat, n, mark):
            return PLAYER_OF[mark]
    return "tie" if EMPTY not in flat else None


def status(board: Sequence[str]) -> str | None:
    """'p1' or 'p2' if that player has a tippy, 'tie' if the board is full, else None."""
    return _status(_flat(board), len(board))


def _outcome(state: State) -> int | None:
    flat, n, mover = state
    done = _status(flat, n)
    if done is None:
        return None
    return DRAW if done == "tie" else WIN if done == PLAYER_OF[mover] else LOSE


def _moves(state: State) -> list[Cell]:
    flat, n, _ = state
    if _status(flat, n) is not None:
        return []
    return [(i // n, i % n) for i, mark in enumerate(flat) if mark == EMPTY]


def _play(state: State, cell: Cell) -> State:
    flat, n, mover = state
    i = cell[0] * n + cell[1]
    return flat[:i] + mover + flat[i + 1:], n, P2_MARK if mover == P1_MARK else P1_MARK


# The engine's negamax over tippy: a state is (the board's marks row by row, n, mover's mark).
SOLVER: Negamax[State, Cell] = Negamax(_moves, _play, _outcome)


def legal_moves(board: Sequence[str]) -> list[Cell]:
    """Every empty cell in row-major order; none once the game is over."""
    return _moves(solver_state(board, "p1"))


def solver_state(board: Sequence[str], player: str) -> State:
    """The solver's state for ``board`` with ``player`` ('p1' or 'p2') to move."""
    return _flat(board), len(board), MARK_OF[player]


def value(board: Sequence[str], player: str) -> int:
    """The score ``player`` ('p1' or 'p2'), about to move, can guarantee from board."""
    return SOLVER.score(solver_state(board, player))


def move_values(board: Sequence[str], player: str) -> dict[Cell, int]:
    """For each legal move of ``player``, the score that move guarantees them."""
    return SOLVER.move_scores(solver_state(board, player))


def replay(n: int, cells: Iterable[Sequence[int]]) -> list[str]:
    """The board after p1 and p2 mark ``cells`` in turn, p1 first."""
    board = empty_board(n)
    for i, cell in enumerate(cells):
        if status(board) is not None:
            raise ValueError(f"move {cell} comes after the game is over")
        board = play(board, (cell[0], cell[1]), "XO"[i % 2])
    return board

