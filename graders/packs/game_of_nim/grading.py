"""Small parent-side helpers shared by the game_of_nim grader tests."""

from __future__ import annotations

from typing import Any


def game_text(board: list[int], path: list[list[int]]) -> str:
    """How a position is named in messages: ``GameOfNim([2, 1]) after moves (0, 1)``."""
    moves = ", ".join(f"({r}, {n})" for r, n in path)
    return f"GameOfNim({board})" + (f" after moves {moves}" if path else "")


def call(worker: Any, pack: Any, op: str, *args: Any) -> Any:
    """Driver operation ``op`` under the pack's rule (``[limits] call_seconds`` holds)."""
    return worker.call(op, *args, pack.settings["rule"])
