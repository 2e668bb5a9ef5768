"""Parent-side facts and seeded positions for the game_of_nim pack (pure functions, stdlib only).

The grader's own oracle for the parts that need no search: legal moves in the handout's order,
the board after a move, who won a finished game, and seeded boards and legal move sequences
for the differential tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

Board = list[int]
Move = list[int]

MISERE = "misere"
NORMAL = "normal"


def legal_moves(board: Sequence[int]) -> list[Move]:
    """All moves ``[r, n]`` on ``board``: row by row, fewest objects first."""
    return [[row, count] for row, size in enumerate(board) for count in range(1, size + 1)]


def apply_move(board: Sequence[int], move: Sequence[int]) -> Board:
    """The board after removing ``move[1]`` objects from row ``move[0]``."""
    row, count = move
    if not 1 <= count <= board[row]:
        raise ValueError(f"illegal move {list(move)} on {list(board)}")
    after = list(board)
    after[row] -= count
    return after


def path_from_choices(board: Sequence[int], choices: Sequence[int]) -> list[Move]:
    """A legal move sequence from ``board``: step i plays move ``choices[i] % len(moves)``.

    Stops early when the game ends, so every prefix of the result is legal.
    """
    path: list[Move] = []
    current = list(board)
    for choice in choices:
        moves = legal_moves(current)
        if not moves:
            break
        move = moves[choice % len(moves)]
        path.append(move)
        current = apply_move(current, move)
    return path


def board_after(board: Sequence[int], path: Sequence[Sequence[int]]) -> Board:
    """The board after playing every move of ``path``."""
    current = list(board)
    for move in path:
        current = apply_move(current, move)
    return current


def first_player_wins(path_length: int, rule: str) -> bool:
    """Whether the player who moved first wins a game that ended after ``path_length`` moves.

    The first player made the last move when the length is odd; under misere the player who
    takes the last object loses, under normal play they win.
    """
    if rule not in (MISERE, NORMAL):
        raise ValueError(f"unknown rule {rule!r}")
    first_moved_last = path_length % 2 == 1
    return first_moved_last == (rule == NORMAL)


def random_board(rng: random.Random, max_rows: int = 4, max_size: int = 5) -> Board:
    """A board of 1..max_rows rows of 0..max_size objects (empty rows included)."""
    return [rng.randint(0, max_size) for _ in range(rng.randint(1, max_rows))]


def seeded_positions(
    seed: int, count: int, max_rows: int = 4, max_size: int = 5
) -> list[tuple[Board, list[Move]]]:
    """``count`` (board, legal path) pairs, the same for the same seed."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        board = random_board(rng, max_rows, max_size)
        choices = [rng.randrange(100) for _ in range(rng.randint(0, sum(board)))]
        positions.append((board, path_from_choices(board, choices)))
    return positions


def finishing_path(board: Sequence[int]) -> list[Move]:
    """A path that empties ``board`` row by row, one whole row per move."""
    return [[row, size] for row, size in enumerate(board) if size]
