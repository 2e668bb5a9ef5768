"""PNT's own answers (parent side, stdlib only): the move rules, and a model of the handout.

`legal_moves` and `position_error` check and generate test inputs. `search` is an alpha-beta
search written here from the handout, with switchable flaws, one per rule: with no flaw it
gives the reference's six numbers on every case (a test proves it against the golden files),
and each flaw in `FLAWS` breaks exactly one handout rule the way a student might. A case
*exposes* a flaw when the flawed search prints another output there (see `exposes`); the
hidden cases of rules.txt were chosen with it. Nothing here runs student or reference code.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from graders.packs.pnt.checks import Position, branching_matches
from graders.solver import LOSE, Negamax


def legal_moves(n: int, taken: Iterable[int], last: int | None) -> list[int]:
    """Tokens the player to move may take, in increasing order (`last` None: first move).

    First move: an odd token strictly less than n/2. Later: an untaken multiple or factor of
    the last token taken.
    """
    if last is None:
        return [t for t in range(1, n + 1, 2) if 2 * t < n]
    used = set(taken)
    return [t for t in range(1, n + 1) if t not in used and (t % last == 0 or last % t == 0)]


def _game_moves(game: tuple[int, tuple[int, ...]]) -> list[int]:
    n, taken = game
    return legal_moves(n, taken, taken[-1] if taken else None)


# The game as the engine's negamax sees it: a state is (n, the tokens taken in order); the
# player who cannot take a token loses. Used to play seeded random games (generate.py).
GAME: Negamax[tuple[int, tuple[int, ...]], int] = Negamax(
    _game_moves, lambda game, token: (game[0], (*game[1], token)),
    lambda game: None if _game_moves(game) else LOSE)


def position_error(position: Position) -> str | None:
    """Why `position` is not a valid test case (a legal, unfinished game), or None."""
    n, taken = position.n, position.taken
    if position.depth < 0:
        return f"the depth must be 0 or more, not {position.depth}"
    if n < 1:
        return f"the number of tokens must be positive, not {n}"
    for i, token in enumerate(taken):
        allowed = legal_moves(n, taken[:i], taken[i - 1] if i else None)
        if token not in allowed:
            return f"move {i + 1} takes {token}, but the legal moves are {allowed}"
    if not legal_moves(n, taken, taken[-1] if taken else None):
        return "the game is already over: the player to move has no legal move"
    return None


def is_prime(number: int) -> bool:
    """True when `number` is a prime."""
    return number >= 2 and all(number % d for d in range(2, math.isqrt(number) + 1))


def prime_factors(number: int) -> list[int]:
    """The distinct primes dividing `number` (at least 2), smallest first."""
    return [p for p in range(2, number + 1) if number % p == 0 and is_prime(p)]


# Each flaw: the handout sentence it breaks, then how.
FLAWS: dict[str, str] = {
    "first_move_even": "first move: \"an odd-numbered token\" -- any token <= n/2 allowed",
    "first_move_not_strict": "first move: \"strictly less than n/2\" -- odd tokens <= n/2",
    "multiples_only": "later moves: \"a multiple or factor\" -- multiples only",
    "factors_only": "later moves: \"a multiple or factor\" -- factors only",
    "forgets_history": "\"may not be one of those that has already been taken\" -- the "
    "command line's taken tokens other than the last are forgotten",
    "terminal_inverted": "\"If a player cannot take a token, he/she loses\" -- the player "
    "to move at an end state wins",
    "parity_inverted": "\"If this number is even, then the current move is Max's\" -- Max "
    "moves when it is odd",
    "no_pruning": "Alpha-Beta pruning (Fig. 5.7) -- plain minimax",
    "strict_cutoff": "Fig. 5.7 returns when v >= beta (v <= alpha) -- strict > (<)",
    "window_minus1_1": "\"initial value of alpha ... NEGATIVE_INFINITY\" -- alpha=-1, beta=1",
    "ties_to_larger": "\"pick the smaller numbered token\" -- the larger one",
    "depth_off_by_one": "\"the specified depth is reached\" -- evaluated one level deeper",
    "root_depth_one": "\"the root is at depth 0\" -- the root counted at depth 1",
    "abf_counts_root": "\"average number of successors\" -- visited / (visited - evaluated)",
    "eval_sign_min": "\"If it is Player B (MIN)'s turn ... return the opposite\" -- no negation",
    "eval_token1_ignored": "\"If token 1 is not taken yet, return a value of 0\" -- skipped",
    "eval_composite_uses_last": "\"find the largest prime that can divide last move\" -- "
    "multiples of the last move itself counted",
    "eval_smallest_prime": "\"find the largest prime that can divide last move\" -- smallest",
    "eval_prime_itself_left_out": "\"including the prime number itself\" -- left out",
    "eval_weights_swapped": "\"return 0.7\" / \"return 0.6\" -- prime and composite swapped",
}
Result = tuple[int, float, int, int, int, float]


@dataclass
class Search:
    """One search of a position, with the flaws switched on and its counters."""

    n: int
    limit: int | None
    flaws: frozenset[str]
    taken: set[int]
    visited: int = 1  # the root
    evaluated: int = 0
    max_depth: int = 0

    def moves(self, last: int | None) -> list[int]:
        """Legal moves after `last` (None: first move), in increasing order."""
        if last is None:
            step = 1 if "first_move_even" in self.flaws else 2
            bound = self.n + ("first_move_not_strict" in self.flaws)
            return [t for t in range(1, self.n + 1, step) if 2 * t < bound]
        multiple, factor = "factors_only" not in self.flaws, "multiples_only" not in self.flaws
        return [
            t for t in range(1, self.n + 1)
            if t not in self.taken and ((multiple and t % last == 0) or (factor and last % t == 0))
        ]

    def evaluate(self, last: int | None, moves: list[int], max_to_move: bool) -> float:
        """The handout's static evaluation, from Max's side."""
        if not moves:
            lost = 1.0 if "terminal_inverted" in self.flaws else -1.0
            return lost if max_to_move else -lost
        if 1 not in self.taken and "eval_token1_ignored" not in self.flaws:
            return 0.0
        prime, composite = (0.6, 0.7) if "eval_weights_swapped" in self.flaws else (0.7, 0.6)
        if last is None or last == 1:
            count, weight = len(moves), 0.5
        elif is_prime(last):
            count, weight = sum(1 for m in moves if m % last == 0), prime
        else:
            p = prime_factors(last)[0 if "eval_smallest_prime" in self.flaws else -1]
            p = last if "eval_composite_uses_last" in self.flaws else p
            skip = p if "eval_prime_itself_left_out" in self.flaws else None
            count, weight = sum(1 for m in moves if m % p == 0 and m != skip), composite
        value = weight if count % 2 == 1 else -weight
        return value if max_to_move or "eval_sign_min" in self.flaws else -value

    def value(self, last: int, depth: int, alpha: float, beta: float, max_to_move: bool) -> float:
        """MAX-VALUE / MIN-VALUE of Fig. 5.7 after taking `last` (already in `taken`)."""
        self.visited += 1
        self.max_depth = max(self.max_depth, depth)
        moves = self.moves(last)
        stop = self.limit + ("depth_off_by_one" in self.flaws) if self.limit else None
        if not moves or depth == stop:
            self.evaluated += 1
            return self.evaluate(last, moves, max_to_move)
        best = -math.inf if max_to_move else math.inf
        for token in moves:
            v = self.child(token, depth + 1, alpha, beta, not max_to_move)
            best = max(best, v) if max_to_move else min(best, v)
            bound = beta if max_to_move else alpha  # Fig. 5.7: v >= beta (Max), v <= alpha (Min)
            cut = best > bound if max_to_move else best < bound
            cut = cut or (best == bound and "strict_cutoff" not in self.flaws)
            if cut and "no_pruning" not in self.flaws:
                return best
            alpha, beta = (max(alpha, best), beta) if max_to_move else (alpha, min(beta, best))
        return best

    def child(self, token: int, depth: int, alpha: float, beta: float, max_to_move: bool) -> float:
        """The value of taking `token`, searched with `token` taken."""
        self.taken.add(token)
        v = self.value(token, depth, alpha, beta, max_to_move)
        self.taken.discard(token)
        return v


def search(position: Position, flaws: Iterable[str] = ()) -> Result:
    """(move, value, visited, evaluated, max depth, branching) of the flawed search."""
    flaws = frozenset(flaws)
    if flaws - set(FLAWS):
        raise ValueError(f"unknown flaws {sorted(flaws - set(FLAWS))}")
    last = position.taken[-1] if position.taken else None
    taken = {last} if "forgets_history" in flaws and last is not None else set(position.taken)
    run = Search(position.n, position.depth or None, flaws, taken)
    max_to_move = (len(position.taken) % 2 == 0) != ("parity_inverted" in flaws)
    alpha, beta = (-1.0, 1.0) if "window_minus1_1" in flaws else (-math.inf, math.inf)
    best: tuple[int, float] | None = None
    for token in run.moves(last):
        v = run.child(token, 1, alpha, beta, not max_to_move)
        tie = "ties_to_larger" in flaws and best is not None and v == best[1]
        if best is None or tie or (v > best[1] if max_to_move else v < best[1]):
            best = (token, v)
        alpha, beta = (max(alpha, v), beta) if max_to_move else (alpha, min(beta, v))
    if best is None:
        raise ValueError(f"no legal move in {position}")
    expanded = run.visited - run.evaluated
    root = 0 if "abf_counts_root" in flaws else 1
    abf = (run.visited - root) / expanded if expanded else 0.0
    depth = run.max_depth + ("root_depth_one" in flaws)
    return best[0], best[1], run.visited, run.evaluated, depth, abf


def exposes(position: Position, flaw: str) -> bool:
    """True when the flawed search prints another output than the right one for `position`.

    Values are compared as printed (one decimal); the branching factor as the grader
    compares it. A flawed search that does not finish cheaply counts as exposed.
    """
    right = search(position)
    try:
        wrong = search(position, {flaw})
    except (RecursionError, ValueError):
        return True
    if right[:5] != wrong[:5]:
        return True
    return not branching_matches(float(f"{wrong[5]:.1f}"), right[2], right[3])
