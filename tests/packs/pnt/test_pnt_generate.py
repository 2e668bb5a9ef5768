"""The seeded generator of hidden PNT positions (graders/packs/pnt/generate.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from graders.pack import get_pack
from graders.packs.pnt import generate as gen
from graders.packs.pnt.checks import Position, parse_cases
from graders.packs.pnt.oracle import position_error
from tests.in_process import reference_module

POSITIONS = gen.generate(seed=2021, count=200)


def test_same_seed_same_positions() -> None:
    assert gen.generate(seed=5, count=20) == gen.generate(seed=5, count=20)
    assert gen.generate(seed=5, count=20) != gen.generate(seed=6, count=20)


def test_positions_are_valid_and_distinct() -> None:
    assert len(set(POSITIONS)) == len(POSITIONS)
    assert [p for p in POSITIONS if position_error(p)] == []


def test_positions_stay_within_limits() -> None:
    assert all(gen.MIN_TOKENS <= p.n <= gen.RANDOM.tokens for p in POSITIONS)
    assert all(0 <= p.depth <= gen.RANDOM.depth for p in POSITIONS)
    sizes = [gen.tree_size(p.n, p.taken, p.depth, gen.RANDOM.budget) for p in POSITIONS]
    assert max(sizes) <= gen.RANDOM.budget


def test_positions_cover_the_interesting_kinds() -> None:
    assert any(not p.taken for p in POSITIONS)  # first move of a game
    assert any(len(p.taken) % 2 == 1 for p in POSITIONS)  # Min to move
    assert any(len(p.taken) % 2 == 0 and p.taken for p in POSITIONS)  # Max, mid-game
    assert any(p.depth == 0 for p in POSITIONS) and any(p.depth > 0 for p in POSITIONS)
    assert len({p.n for p in POSITIONS}) >= 15


def test_limits_are_honoured() -> None:
    small = gen.generate(1, 30, gen.Limits(tokens=6, depth=2, budget=50, full_depth=0.4))
    assert all(p.n <= 6 and p.depth <= 2 for p in small)
    assert all(gen.tree_size(p.n, p.taken, p.depth, 50) <= 50 for p in small)


def test_impossible_request_fails_clearly() -> None:
    with pytest.raises(ValueError, match="cannot find 50 distinct positions"):
        gen.generate(1, 50, replace(gen.RANDOM, tokens=3, depth=1))


def test_tree_size() -> None:
    # n=7 after 1, depth 1: root + 6 children.  Full n=3 game: root, 1, then 2 and 3.
    assert gen.tree_size(7, (1,), 1, budget=100) == 7
    assert gen.tree_size(3, (), 0, budget=100) == 4
    assert gen.tree_size(20, (), 0, budget=1000) == 1001  # stops just above the budget


def test_random_history_leaves_a_move() -> None:
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(3, 20)
        assert position_error(Position(n, gen.random_history(rng, n), 0)) is None


def test_command_line_prints_a_case_file(capsys: pytest.CaptureFixture[str]) -> None:
    gen.main(["--seed", "4", "--count", "3"])
    cases = parse_cases(capsys.readouterr().out)
    assert cases == gen.cases(seed=4, count=3)
    assert list(cases) == ["input1", "input2", "input3"]
    assert not [p for p in cases.values() if position_error(p)]


def test_reference_answers_generated_cases_within_the_node_budget() -> None:
    pnt = reference_module(get_pack("pnt"), "pnt")
    visited = [pnt.alpha_beta_search(p.n, list(p.taken), p.depth)[2] for p in POSITIONS]
    assert max(visited) <= gen.RANDOM.budget
