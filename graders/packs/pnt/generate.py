"""Seeded PNT test positions (parent side, stdlib only): random ones, and rule-covering ones.

A position is a number of tokens n, a legal history of taken tokens that leaves the player to
move at least one legal move, and a search depth (0 = to the end of the game). The same seed
always gives the same positions. Cases are kept small: the full minimax tree of each position
(to its depth limit) has at most a budget of nodes, so a correct program without pruning
still answers well inside the handout's 10 s, and the reference in a few milliseconds.

A random case rarely shows some rules: the first-move rule needs a new game, the evaluation's
prime and composite branches need a depth-limited search whose leaves end on such a move.
`choose` takes a pool of positions (a quarter of them new games), asks the flawed searches of
:mod:`graders.packs.pnt.oracle` which flaws each exposes, and greedily keeps the position that
helps the most flaws still short of `per_rule` cases, until each is exposed that often.

Command line (prints a test case file; fixtures/pnt/inputs/hidden.txt and rules.txt were
made so, as their first line says):

    python -m graders.packs.pnt.generate --seed 472 --count 10 --prefix hidden
    python -m graders.packs.pnt.generate --seed 2021 --per-rule 3 --prefix rule
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass

from graders.packs.pnt.checks import Position, format_cases
from graders.packs.pnt.oracle import FLAWS, GAME, exposes
from graders.solver import sample

MIN_TOKENS = 3


@dataclass(frozen=True)
class Limits:
    """How positions are drawn: at most `tokens` tokens, a depth limit of at most `depth`, a
    full minimax tree of at most `budget` nodes; a `full_depth` share searched to the end of
    the game and a `new_games` share with no history."""

    tokens: int
    depth: int
    budget: int
    full_depth: float
    new_games: float = 0.0


RANDOM = Limits(tokens=20, depth=6, budget=50_000, full_depth=0.4)
# The pool the rule-covering cases are chosen from: smaller trees, more new games.
POOL = Limits(tokens=16, depth=5, budget=4000, full_depth=0.3, new_games=0.25)
POOL_SIZE = 600


def tree_size(n: int, taken: Sequence[int], depth: int, budget: int) -> int:
    """Nodes of the full minimax tree of the position, counting stops just above `budget`."""
    limit, count = depth or None, 0  # depth 0: to the end of the game

    def walk(game: tuple[int, tuple[int, ...]], level: int) -> None:
        nonlocal count
        count += 1
        if count > budget or level == limit:
            return
        for token in GAME.moves(game):
            walk(GAME.play(game, token), level + 1)
            if count > budget:
                return

    walk((n, tuple(taken)), 0)
    return count


def random_history(rng: random.Random, n: int) -> tuple[int, ...]:
    """A random legal prefix of a game with n tokens that leaves the player to move a move."""
    game, _ = GAME.random_line(rng, (n, ()))
    # Stopping after the last move would leave a finished game: it is not a valid case.
    return tuple(game[: rng.randrange(len(game))])


def generate(seed: int, count: int, limits: Limits = RANDOM) -> list[Position]:
    """`count` distinct random valid positions within `limits`, the same for the same seed."""

    def draw(rng: random.Random, _: int) -> Position | None:
        n = rng.randint(MIN_TOKENS, limits.tokens)
        depth = 0 if rng.random() < limits.full_depth else rng.randint(1, limits.depth)
        new = bool(limits.new_games) and rng.random() < limits.new_games
        position = Position(n, () if new else random_history(rng, n), depth)
        fits = tree_size(n, position.taken, depth, limits.budget) <= limits.budget
        return position if fits else None

    try:
        return sample(draw, count, seed, distinct=True)
    except ValueError as error:
        raise ValueError(f"{error}, with {limits}") from None


def choose(candidates: Sequence[Position], per_rule: int) -> list[Position]:
    """Greedy cover: positions until each flaw is exposed `per_rule` times.

    Mid-game positions are tried first and new games only for what they alone can show (the
    first-move rule), so a program that fails every new game does not lose more than that
    rule is worth. Pool order breaks ties. Raises ValueError naming the flaws the candidates
    cannot expose often enough.
    """
    shown = {p: {f for f in FLAWS if exposes(p, f)} for p in candidates}
    need = dict.fromkeys(FLAWS, per_rule)
    chosen: list[Position] = []
    for left in ([p for p in candidates if p.taken], [p for p in candidates if not p.taken]):
        while left:
            best = max(left, key=lambda p: sum(need[f] > 0 for f in shown[p]))
            if not any(need[f] for f in shown[best]):
                break
            chosen.append(best)
            left.remove(best)
            for flaw in shown[best]:
                need[flaw] = max(0, need[flaw] - 1)
    short = sorted(f for f, left in need.items() if left)
    if short:
        raise ValueError(f"the pool cannot expose {short} {per_rule} times")
    return chosen


def cases(seed: int, count: int = 10, per_rule: int | None = None, prefix: str = "input") -> dict:
    """Cases named <prefix>1, <prefix>2, ...: `count` random ones, or with `per_rule` the
    positions of a pool drawn from `seed` that expose each flaw `per_rule` times."""
    found = choose(generate(seed, POOL_SIZE, POOL), per_rule) if per_rule else \
        generate(seed, count)
    return {f"{prefix}{i}": position for i, position in enumerate(found, 1)}


def case_file(seed: int, count: int = 10, per_rule: int | None = None, prefix: str = "input"
              ) -> str:
    """A test case file of `cases`, headed by the command that remakes it."""
    how = f"--per-rule {per_rule}" if per_rule else f"--count {count}"
    command = f"python -m graders.packs.pnt.generate --seed {seed} {how} --prefix {prefix}"
    header = f"# Made by: {command}\n"
    if per_rule:
        header += (
            "# Each handout rule (graders/packs/pnt/oracle.py, FLAWS) is exposed by at least\n"
            f"# {per_rule} of these cases; tests/packs/pnt/test_pnt_cover.py proves it.\n"
        )
    return header + format_cases(cases(seed, count, per_rule, prefix))


def main(argv: Sequence[str] | None = None) -> None:
    """Print the cases made from `--seed`: `--count` random ones, or `--per-rule` covering."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--per-rule", type=int, help="choose cases exposing each rule N times")
    parser.add_argument("--prefix", default="input", help="case names: <prefix>1, <prefix>2...")
    args = parser.parse_args(argv)
    print(case_file(args.seed, args.count, args.per_rule, args.prefix), end="")


if __name__ == "__main__":
    main()
