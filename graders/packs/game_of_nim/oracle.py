"""The game_of_nim pack's own answers (parent side, pure, stdlib only): legal moves in the
handout's order, the board after some moves, the legal path a list of choices picks (the
differential tests' positions), and who won a finished game."""

from __future__ import annotations

from collections.abc import Sequence

MISERE, NORMAL = "misere", "normal"


def legal_moves(board: Sequence[int]) -> list[list[int]]:
    """All moves ``[r, n]`` on ``board``: row by row, fewest objects first."""
    return [[row, count] for row, size in enumerate(board) for count in range(1, size + 1)]


def board_after(board: Sequence[int], path: Sequence[Sequence[int]]) -> list[int]:
    """The board after playing every move of ``path``; an illegal move raises ValueError."""
    current = list(board)
    for row, count in path:
        if not 1 <= count <= current[row]:
            raise ValueError(f"illegal move {[row, count]} on {current}")
        current[row] -= count
    return current


def path_from_choices(board: Sequence[int], choices: Sequence[int]) -> list[list[int]]:
    """A legal move sequence from ``board``: step i plays move ``choices[i] % len(moves)``.

    Stops early when the game ends, so every prefix of the result is legal.
    """
    path: list[list[int]] = []
    for choice in choices:
        moves = legal_moves(board_after(board, path))
        if not moves:
            break
        path.append(moves[choice % len(moves)])
    return path


def first_player_wins(path_length: int, rule: str) -> bool:
    """Whether the player who moved first wins a game that ended after ``path_length`` moves.

    The first player made the last move when the length is odd; under misere the player who
    takes the last object loses, under normal play they win.
    """
    if rule not in (MISERE, NORMAL):
        raise ValueError(f"unknown rule {rule!r}")
    return (path_length % 2 == 1) == (rule == NORMAL)
