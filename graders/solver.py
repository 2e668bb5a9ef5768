"""Exact answers for the two-player games pack oracles describe (parent side, stdlib only).

A pack's oracle says what its game is (the legal moves of a state, the state a move leads to,
and the score of a finished state for the player to move); :class:`Negamax` answers, from the
rules alone, what every move guarantees, which moves are optimal, and how many states a plain
minimax visits. It also plays seeded random lines, and :func:`sample` draws a pack's test
positions from seeds, so the same seed always gives the same cases (a submission gets the same
mark on every run). :data:`SUBTRACT_SQUARE` is the starter game of the handouts' game
framework, which both courses' strategies must also play.

Scores are for the player to move: ``WIN`` (1), ``DRAW`` (0), ``LOSE`` (-1).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Generic, TypeVar

WIN, DRAW, LOSE = 1, 0, -1

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move")
Case = TypeVar("Case")
Seed = int | str


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

    @property
    def known(self) -> int:
        """How many states' scores this solver keeps (its memo's size)."""
        return len(self._scores)

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

    def random_line(self, rng: random.Random, state: State,
                    stop: Callable[[State], bool] = lambda state: False
                    ) -> tuple[list[Move], State]:
        """Random legal moves from ``state`` (each ``rng.choice`` of the legal moves) until
        ``stop`` holds for the state reached or the game is over: the moves and that state."""
        line: list[Move] = []
        while (legal := self.moves(state)) and not stop(state):
            line.append(rng.choice(legal))
            state = self.play(state, line[-1])
        return line, state


def sample(draw: Callable[[random.Random, int], Case | None], count: int,
           seed: Seed | Iterable[Seed], *, distinct: bool = False,
           most: int | None = None) -> list[Case]:
    """``count`` cases: ``draw(rng, found)`` for ``found`` = the number of cases kept so far,
    until ``count`` of its answers are kept (None is a miss; with ``distinct``, so is a case
    already kept).

    ``seed``: one seed, whose generator every draw goes on using, or an iterable of seeds, one
    fresh generator per draw (each draw reproducible on its own). ValueError after ``most``
    draws (by default 100 per case, and 1000 more).
    """
    rngs = itertools.repeat(random.Random(seed)) if isinstance(seed, int | str) else \
        (random.Random(one) for one in seed)
    limit = 100 * count + 1000 if most is None else most
    found: list[Case] = []
    for _, rng in zip(range(limit), rngs, strict=False):
        if len(found) == count:
            break
        case = draw(rng, len(found))
        if case is not None and not (distinct and case in found):
            found.append(case)
    if len(found) == count:
        return found
    kind = "distinct positions" if distinct else "positions"
    raise ValueError(f"cannot find {count} {kind} in {limit} draws (found {len(found)})")


# Subtract square, the starter game of the handouts' framework: a state is the total left, a
# move the square taken; the player who cannot move (total 0) has lost.
SUBTRACT_SQUARE: Negamax[int, int] = Negamax(
    moves=lambda total: [k * k for k in range(1, math.isqrt(total) + 1)],
    play=lambda total, square: total - square,
    outcome=lambda total: LOSE if total == 0 else None)
