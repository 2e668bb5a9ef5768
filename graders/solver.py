"""Exact answers for the two-player games pack oracles describe (parent side, stdlib only).

A pack's oracle says what its game is (the legal moves of a state, the state a move leads to,
and the score of a finished state for the player to move); :class:`Negamax` answers, from the
rules alone, what every move guarantees, which moves are optimal, and how many states a plain
minimax visits.

Scores are for the player to move: ``WIN`` (1), ``DRAW`` (0), ``LOSE`` (-1).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

WIN, DRAW, LOSE = 1, 0, -1

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move")


class Negamax(Generic[State, Move]):
    """A memoised negamax over the states of one game.

    ``moves(state)``: the legal moves (none once the game is over); ``play(state, move)``: the
    state after the player to move makes ``move``; ``outcome(state)``: the score of a finished
    state for the player to move there, None while the game goes on. ``key(state)`` (the state
    itself by default) is what the answers are kept under for the life of the object: states
    with the same key must have the same answers (a symmetric game may key on "the mover's"
    and "the opponent's" pieces rather than on whose turn it is).
    """

    def __init__(self, moves: Callable[[State], Sequence[Move]],
                 play: Callable[[State, Move], State],
                 outcome: Callable[[State], int | None],
                 key: Callable[[State], Hashable] = lambda state: state) -> None:
        self.moves, self.play, self.outcome, self.key = moves, play, outcome, key
        self._scores: dict[Hashable, int] = {}
        self._sizes: dict[Hashable, int] = {}

    def score(self, state: State) -> int:
        """What the player to move can guarantee from ``state``."""
        key = self.key(state)
        if key not in self._scores:
            done = self.outcome(state)
            if done is None:
                done = LOSE
                for move in self.moves(state):
                    done = max(done, -self.score(self.play(state, move)))
                    if done == WIN:
                        break
            self._scores[key] = done
        return self._scores[key]

    def move_scores(self, state: State) -> dict[Move, int]:
        """The score each legal move guarantees the player to move."""
        return {move: -self.score(self.play(state, move)) for move in self.moves(state)}

    def best_moves(self, state: State) -> list[Move]:
        """Every legal move with the optimal score (any of them is a correct minimax answer)."""
        scores = self.move_scores(state)
        top = max(scores.values(), default=None)
        return [move for move, value in scores.items() if value == top]

    def tree_size(self, state: State) -> int:
        """How many states a plain (unpruned, unmemoised) minimax visits from ``state``."""
        key = self.key(state)
        if key not in self._sizes:
            self._sizes[key] = 1 + sum(self.tree_size(self.play(state, move))
                                       for move in self.moves(state))
        return self._sizes[key]
