"""PNT positions and move rules, as plain data (parent side, stdlib only).

The grader never runs the reference here: these rules only check and generate test inputs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Position:
    """One PNT test case: n tokens, the taken tokens in order, and the search depth."""

    n: int
    taken: tuple[int, ...]
    depth: int

    def argv(self) -> list[str]:
        """The program's command-line words: n, #taken, taken tokens..., depth."""
        return [str(w) for w in (self.n, len(self.taken), *self.taken, self.depth)]

    def line(self) -> str:
        """The case as a test case file line, e.g. ``TakeTokens 7 3 1 4 2 3``."""
        return " ".join(["TakeTokens", *self.argv()])


def legal_moves(n: int, taken: Iterable[int], last: int | None) -> list[int]:
    """Tokens the player to move may take, in increasing order (`last` None: first move).

    First move: an odd token strictly less than n/2. Later: an untaken multiple or factor of
    the last token taken.
    """
    if last is None:
        return [t for t in range(1, n + 1, 2) if 2 * t < n]
    used = set(taken)
    return [t for t in range(1, n + 1) if t not in used and (t % last == 0 or last % t == 0)]


def history_error(n: int, taken: Sequence[int]) -> str | None:
    """Why `taken` is not a legal history of an unfinished game with n tokens, or None."""
    if n < 1:
        return f"the number of tokens must be positive, not {n}"
    for i, token in enumerate(taken):
        allowed = legal_moves(n, taken[:i], taken[i - 1] if i else None)
        if token not in allowed:
            return f"move {i + 1} takes {token}, but the legal moves are {allowed}"
    if not legal_moves(n, taken, taken[-1] if taken else None):
        return "the game is already over: the player to move has no legal move"
    return None


def position_error(position: Position) -> str | None:
    """Why `position` is not a valid test case, or None when it is."""
    if position.depth < 0:
        return f"the depth must be 0 or more, not {position.depth}"
    return history_error(position.n, position.taken)
