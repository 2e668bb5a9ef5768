"""Self-checks of the tippy pack: every sample submission gets exactly its expected marks."""

from __future__ import annotations

import pytest

from graders.packs import get_pack
from graders.selfcheck import expected_by_student, mismatches

PACK = get_pack("tippy")
EXPECTED = expected_by_student(PACK)


@pytest.fixture(scope="module")
def results(graded_samples):
    outcome, _ = graded_samples("tippy")
    return {result.student: result for result in outcome.results}


def test_there_are_enough_samples():
    assert len(EXPECTED) >= 12


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_sample_gets_expected_marks(results, student):
    assert student in results, f"sample {student} was not graded"
    assert mismatches(results[student], EXPECTED[student]) == []


def test_every_sample_is_graded_without_grader_error(graded_samples):
    outcome, _ = graded_samples("tippy")
    assert outcome.ok, [r.grader_errors for r in outcome.results if r.grader_errors]


def test_the_late_sample_names_its_lateness(results):
    [late] = [d for d in results["late_2h10"].deductions if "late" in d.reason]
    assert late.reason.startswith("late by 2 h 10 min: 3 started hour(s) x 5%")
    assert late.points == 15.0


def test_failures_explain_themselves(results):
    messages = {t.name: t.message for t in results["minimax_worst"].tests
                if t.outcome == "failed"}
    assert "guarantees only" in messages["test_minimax_plays_an_optimal_move"]
    diff = [t for t in results["only_horizontal"].tests
            if t.name == "test_state_agrees_with_reference"][0]
    assert "(vs the reference)" in diff.message
    changed = [v for v in results["game_view_rewritten"].violations if v.rule == "changed-lines"]
    assert any("allows at most 11" in v.message for v in changed)
