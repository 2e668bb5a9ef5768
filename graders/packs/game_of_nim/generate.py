"""Positions for the game_of_nim pack's differential tests (parent side, pure, stdlib only)."""

from __future__ import annotations

from collections.abc import Sequence

from graders.packs.game_of_nim.oracle import board_after, legal_moves


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
