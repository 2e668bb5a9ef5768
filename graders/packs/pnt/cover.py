"""Choose hidden PNT cases so that every rule of the handout is exposed (parent side).

A random case rarely shows some rules: the first-move rule needs a new game, the evaluation's
prime and composite branches need a depth-limited search whose leaves end on such a move.
This draws a reproducible pool of valid positions (a quarter of them new games), asks the
flawed searches of :mod:`graders.packs.pnt.variants` which flaws each position exposes, and
greedily keeps the position that helps the most flaws still short of `per_rule` cases, until
every flaw is exposed in at least `per_rule` chosen cases.

Command line (fixtures/pnt/inputs/rules.txt was made this way):

    python -m graders.packs.pnt.cover --seed 2021 --per-rule 3 --prefix rule
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from graders.packs.pnt.cases import Case, format_cases
from graders.packs.pnt.generate import MIN_TOKENS, random_history, tree_size
from graders.packs.pnt.positions import Position, position_error
from graders.packs.pnt.variants import FLAWS, exposes

POOL = 600
MAX_TOKENS = 16
MAX_DEPTH = 5
# Small trees: a correct program without pruning answers each chosen case in milliseconds.
NODE_BUDGET = 4000


def pool(seed: int, size: int = POOL) -> list[Position]:
    """`size` distinct valid positions drawn from `seed`, a quarter of them new games."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < size:
        n = rng.randint(MIN_TOKENS, MAX_TOKENS)
        depth = 0 if rng.random() < 0.3 else rng.randint(1, MAX_DEPTH)
        taken = () if rng.random() < 0.25 else random_history(rng, n)
        position = Position(n, taken, depth)
        if position in positions or position_error(position):
            continue
        if tree_size(n, taken, depth, NODE_BUDGET) <= NODE_BUDGET:
            positions.append(position)
    return positions


def choose(candidates: Sequence[Position], per_rule: int) -> list[Position]:
    """Greedy cover: positions until each flaw is exposed `per_rule` times.

    Mid-game positions are tried first and new games only for what they alone can show (the
    first-move rule), so a program that fails every new game does not lose more than that
    rule is worth. Pool order breaks ties. Raises ValueError naming the flaws the candidates
    cannot expose often enough.
    """
    shown = {p: {f for f in FLAWS if exposes(p, f)} for p in candidates}
    need = dict.fromkeys(FLAWS, per_rule)
    chosen = _greedy([p for p in candidates if p.taken], shown, need)
    chosen += _greedy([p for p in candidates if not p.taken], shown, need)
    short = sorted(f for f, left in need.items() if left)
    if short:
        raise ValueError(f"the pool cannot expose {short} {per_rule} times")
    return chosen


def _greedy(
    candidates: Sequence[Position], shown: dict[Position, set[str]], need: dict[str, int]
) -> list[Position]:
    """Keep the candidate helping the most flaws still in `need` (updated) while one helps."""
    chosen: list[Position] = []
    left = list(candidates)
    while left:
        best = max(left, key=lambda p: sum(need[f] > 0 for f in shown[p]))
        if not any(need[f] for f in shown[best]):
            break
        chosen.append(best)
        left.remove(best)
        for flaw in shown[best]:
            need[flaw] = max(0, need[flaw] - 1)
    return chosen


def covering_cases(seed: int, per_rule: int, prefix: str = "rule") -> list[Case]:
    """The chosen cases, named <prefix>1, <prefix>2, ..."""
    positions = choose(pool(seed), per_rule)
    return [Case(f"{prefix}{i}", p) for i, p in enumerate(positions, 1)]


def case_file(seed: int, per_rule: int, prefix: str = "rule") -> str:
    """A test case file of the chosen cases, headed by the command that remakes it."""
    command = f"python -m graders.packs.pnt.cover --seed {seed} --per-rule {per_rule}"
    command += f" --prefix {prefix}"
    header = (
        f"# Made by: {command}\n"
        "# Each handout rule (graders/packs/pnt/variants.py, FLAWS) is exposed by at least\n"
        f"# {per_rule} of these cases; tests/packs/pnt/test_pnt_cover.py proves it.\n"
    )
    return header + format_cases(covering_cases(seed, per_rule, prefix))


def main(argv: Sequence[str] | None = None) -> None:
    """Print the covering cases for `--seed` and `--per-rule`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-rule", type=int, default=3)
    parser.add_argument("--prefix", default="rule")
    args = parser.parse_args(argv)
    print(case_file(args.seed, args.per_rule, args.prefix), end="")


if __name__ == "__main__":
    main()
