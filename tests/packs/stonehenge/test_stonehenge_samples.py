"""Self-checks of the stonehenge pack: every sample gets exactly its expected marks."""

from __future__ import annotations

import pytest

from graders.golden import stale_golden
from graders.packs import get_pack
from graders.selfcheck import expected_by_student, mismatches

PACK = get_pack("stonehenge")
EXPECTED = expected_by_student(PACK)


@pytest.fixture(scope="module")
def results(graded_samples):
    outcome, _ = graded_samples("stonehenge")
    return {result.student: result for result in outcome.results}


def test_there_are_enough_samples():
    assert len(EXPECTED) >= 12


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_sample_gets_expected_marks(results, student):
    assert student in results, f"sample {student} was not graded"
    assert mismatches(results[student], EXPECTED[student]) == []


def test_reference_scores_full_marks(results):
    assert results["correct"].total == PACK.declaration.max_points


def test_bare_template_scores_nothing(results):
    assert results["bare_template"].total == 0


def test_every_sample_is_graded_without_grader_error(graded_samples):
    outcome, _ = graded_samples("stonehenge")
    assert outcome.ok, [r.grader_errors for r in outcome.results if r.grader_errors]


def test_golden_files_are_current():
    assert stale_golden(PACK) == []
