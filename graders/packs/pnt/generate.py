"""Seeded generator of valid random PNT positions (parent side, stdlib only).

A position is a number of tokens n, a legal history of taken tokens that leaves the player to
move at least one legal move, and a search depth (0 = to the end of the game). The same seed
always gives the same positions, so hidden tests are stable from run to run.

Cases are kept small: the full minimax tree of each position (to its depth limit) has at most
`node_budget` nodes, so a correct program without pruning still answers well inside the
handout's 10 s, and the reference answers in a few milliseconds.

Command line (prints a test case file in the format of the official testcase.txt; the pack's
hidden cases, fixtures/pnt/inputs/hidden.txt, were made this way):

    python -m graders.packs.pnt.generate --seed 472 --count 10 --prefix hidden
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from graders.packs.pnt.cases import Case, format_cases
from graders.packs.pnt.positions import Position, legal_moves

MIN_TOKENS = 3
MAX_TOKENS = 20
MAX_DEPTH = 6
NODE_BUDGET = 50_000


def tree_size(n: int, taken: Sequence[int], depth: int, budget: int) -> int:
    """Nodes of the full minimax tree of the position, counting stops just above `budget`."""
    used = set(taken)
    limit = depth if depth else None  # depth 0 means to the end of the game
    count = 0

    def walk(last: int | None, level: int) -> None:
        nonlocal count
        count += 1
        if count > budget or level == limit:
            return
        for token in legal_moves(n, used, last):
            used.add(token)
            walk(token, level + 1)
            used.remove(token)
            if count > budget:
                return

    walk(taken[-1] if taken else None, 0)
    return count


def random_history(rng: random.Random, n: int) -> tuple[int, ...]:
    """A random legal prefix of a game with n tokens that leaves the player to move a move."""
    game: list[int] = []
    while moves := legal_moves(n, game, game[-1] if game else None):
        game.append(rng.choice(moves))
    # Stopping after the last move would leave a finished game: it is not a valid case.
    return tuple(game[: rng.randrange(len(game))])


def random_position(
    rng: random.Random,
    max_tokens: int = MAX_TOKENS,
    max_depth: int = MAX_DEPTH,
    node_budget: int = NODE_BUDGET,
) -> Position:
    """A random valid position whose minimax tree has at most `node_budget` nodes."""
    while True:
        n = rng.randint(MIN_TOKENS, max_tokens)
        depth = 0 if rng.random() < 0.4 else rng.randint(1, max_depth)
        taken = random_history(rng, n)
        if tree_size(n, taken, depth, node_budget) <= node_budget:
            return Position(n, taken, depth)


def generate_cases(seed: int, count: int, prefix: str = "input", **limits: int) -> list[Case]:
    """`count` random cases named <prefix>1, <prefix>2, ... (see `generate`)."""
    return [Case(f"{prefix}{i}", p) for i, p in enumerate(generate(seed, count, **limits), 1)]


def case_file(seed: int, count: int, prefix: str = "input") -> str:
    """A test case file of generated cases, headed by the command that remakes it."""
    command = f"python -m graders.packs.pnt.generate --seed {seed} --count {count}"
    if prefix != "input":
        command += f" --prefix {prefix}"
    return f"# Made by: {command}\n" + format_cases(generate_cases(seed, count, prefix))


def generate(seed: int, count: int, **limits: int) -> list[Position]:
    """`count` distinct random positions, the same for the same seed and limits."""
    rng = random.Random(seed)
    positions: list[Position] = []
    attempts = 0
    while len(positions) < count:
        attempts += 1
        if attempts > 100 * count:
            raise ValueError(f"cannot find {count} distinct positions with limits {limits}")
        position = random_position(rng, **limits)
        if position not in positions:
            positions.append(position)
    return positions


def main(argv: Sequence[str] | None = None) -> None:
    """Print `--count` random cases made from `--seed`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--prefix", default="input", help="case names: <prefix>1, <prefix>2...")
    args = parser.parse_args(argv)
    print(case_file(args.seed, args.count, args.prefix), end="")


if __name__ == "__main__":
    main()
