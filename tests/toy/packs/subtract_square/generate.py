"""Seeded cases for the hidden tests (parent side, pure): the same cases on every run and
for every student, made when a test asks for them, never at import."""

from __future__ import annotations

import random
from math import isqrt

from .oracle import PLAYERS, moves


def totals(seed: int, count: int, largest: int) -> list[int]:
    """``count`` distinct totals in 1..largest (all of them when count is larger)."""
    population = range(1, largest + 1)
    return sorted(random.Random(seed).sample(population, min(count, len(population))))


def slips(total: int) -> list[int]:
    """Illegal amounts a slip lets through: the first square above ``total``, zero, a
    negative square, and the non-squares up to ``total``."""
    above = (isqrt(total) + 1) ** 2
    return [above, 0, -1, *(n for n in range(2, total + 1) if isqrt(n) ** 2 != n)]


def apply_cases(seed: int, count: int, largest: int) -> list[tuple[int, int]]:
    """(total, amount) pairs in 1..largest, half legal and half illegal."""
    rng = random.Random(seed)
    cases = []
    for index in range(count):
        total = rng.randint(1, largest)
        amounts = moves(total) if index % 2 == 0 else slips(total)
        cases.append((total, rng.choice(amounts)))
    return cases


def end_cases(seed: int, count: int, largest: int) -> list[tuple[int, str]]:
    """(total, player to move) pairs: a finished game for each player, then ``count``
    games that go on."""
    rng = random.Random(seed)
    cases = [(0, "p1"), (0, "p2")]
    cases += [(rng.randint(1, largest), rng.choice(PLAYERS)) for _ in range(count)]
    return cases
