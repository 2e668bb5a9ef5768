"""Subtract Square grader tests for the five functions (parent side, plain data only).

Every expectation comes from the pack's oracle, so the handout's own examples are public (the
student pre-check runs them) and the generated cases are hidden. A case checks a function
doing its job, never only a constant answer: `apply` must both move and refuse, `is_over` and
`winner` see a finished game and one that goes on.
"""

from __future__ import annotations

import pytest

from . import checks
from .generate import apply_cases, end_cases, totals

SEED = 19
CASES = 12


@pytest.mark.public
@pytest.mark.parametrize("total", [1, 4, 17])
def test_moves_handout(student, total):
    checks.expect_moves(student, total)


def test_moves_generated(student, pack):
    for total in totals(SEED, CASES, pack.settings["largest_total"]):
        checks.expect_moves(student, total)


@pytest.mark.public
@pytest.mark.parametrize(("total", "legal", "illegal"), [(17, 16, 2), (3, 1, 4), (5, 4, 0)])
def test_apply_handout(student, total, legal, illegal):
    checks.expect_apply(student, total, legal)
    checks.expect_apply(student, total, illegal)


def test_apply_generated(student, pack):
    for total, amount in apply_cases(SEED, CASES, pack.settings["largest_total"]):
        checks.expect_apply(student, total, amount)


@pytest.mark.public
def test_is_over_handout(student):
    for total in (0, 1, 2, 17):
        checks.expect_is_over(student, total)


@pytest.mark.public
def test_winner_handout(student):
    for total, player in ((0, "p1"), (0, "p2"), (5, "p1")):
        checks.expect_winner(student, total, player)


def test_winner_generated(student, pack):
    for total, player in end_cases(SEED, CASES, pack.settings["largest_total"]):
        checks.expect_winner(student, total, player)


@pytest.mark.public
@pytest.mark.parametrize("total", [2, 13, 17])
def test_best_move_handout(student, total):
    checks.expect_best_move(student, total)


def test_best_move_generated(student, pack):
    for total in [0, *totals(SEED + 1, CASES, pack.settings["largest_total"])]:
        checks.expect_best_move(student, total)
