"""The PNT reference's alpha-beta agrees with a plain minimax written here, on random positions.

Alpha-beta with ties to the smaller token must return the minimax value and the smallest
token whose minimax value is optimal; its counters must describe a subtree of the minimax tree.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graders.pack import get_pack
from graders.packs.pnt.checks import Position
from graders.packs.pnt.generate import RANDOM, generate
from graders.packs.pnt.oracle import legal_moves
from tests.in_process import reference_module

pnt = reference_module(get_pack("pnt"), "pnt")


def minimax(n: int, taken: list[int], depth: int, limit: int | None, counts: dict) -> float:
    """Plain minimax value from Max's side; counts every node and leaf in `counts`."""
    counts["nodes"] += 1
    counts["depth"] = max(counts["depth"], depth)
    last = taken[-1] if taken else None
    moves = legal_moves(n, taken, last)
    max_to_move = len(taken) % 2 == 0
    if not moves or depth == limit:
        counts["leaves"] += 1
        return pnt.evaluate(n, set(taken), last, max_to_move)
    values = [minimax(n, [*taken, m], depth + 1, limit, counts) for m in moves]
    return max(values) if max_to_move else min(values)


def oracle(position: Position) -> tuple[set[int], float, dict]:
    """Optimal root moves, the minimax value and the full tree's counts."""
    taken = list(position.taken)
    limit = position.depth or None
    counts = {"nodes": 1, "leaves": 0, "depth": 0}
    moves = legal_moves(position.n, taken, taken[-1] if taken else None)
    values = {m: minimax(position.n, [*taken, m], 1, limit, counts) for m in moves}
    best = max(values.values()) if len(taken) % 2 == 0 else min(values.values())
    return {m for m, v in values.items() if v == best}, best, counts


SMALL = replace(RANDOM, budget=3000)
positions = st.integers(0, 10**6).map(lambda seed: generate(seed, 1, SMALL)[0])


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(positions)
def test_alpha_beta_matches_minimax(position: Position) -> None:
    move, value, visited, evaluated, max_depth, abf = pnt.alpha_beta_search(
        position.n, list(position.taken), position.depth
    )
    best_moves, best_value, full = oracle(position)
    assert value == best_value
    assert move == min(best_moves)
    assert 1 < visited <= full["nodes"]
    assert 0 < evaluated <= full["leaves"]
    assert max_depth <= full["depth"]
    assert abf == (visited - 1) / (visited - evaluated)
    if position.depth:
        assert max_depth <= position.depth
