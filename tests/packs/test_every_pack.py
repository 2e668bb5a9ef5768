"""The self-checks every pack must pass (DESIGN.md, "Self-checks that keep the packs honest").

Packs are discovered, so a sixth assignment is checked here with no edit: its reference scores
full marks, each sample submission gets exactly the marks its expected.json declares, grading
the samples raises no grader error, and its golden files match what the reference prints now.
Pack-specific checks live beside each pack in tests/packs/<id>/.
"""

from __future__ import annotations

from functools import cache

import pytest

from graders.batch import BatchRequest, grade_batch
from graders.golden import stale_golden
from graders.packs import discover_packs
from graders.selfcheck import (
    DO_NOTHING,
    declaration_problems,
    expected_by_student,
    mismatches,
    sample_sources,
)
from graders.submissions import student_id

PACKS = discover_packs()
# Collection lists the samples' folders; their expected.json is read when a test needs it.
SAMPLES = [(pack_id, student_id(path)) for pack_id in sorted(PACKS)
           for path in sorted(sample_sources(PACKS[pack_id]))]


@cache
def expected(pack_id: str) -> dict[str, dict]:
    return expected_by_student(PACKS[pack_id])


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_pack_declares_what_every_pack_needs(pack_id):
    """Enough samples, a do_nothing sample, a handout citation on every criterion and rule."""
    assert declaration_problems(PACKS[pack_id]) == []


@pytest.mark.parametrize(("pack_id", "student"), SAMPLES)
def test_sample_gets_expected_marks(sample_results, pack_id, student):
    graded = sample_results(pack_id)
    assert student in graded, f"sample {student} was not graded"
    assert mismatches(graded[student], expected(pack_id)[student]) == []


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_samples_are_graded_without_grader_error(graded_samples, pack_id):
    outcome, _ = graded_samples(pack_id)
    assert outcome.ok, [r.grader_errors for r in outcome.results if r.grader_errors]


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_doing_nothing_earns_at_most_a_tenth(sample_results, pack_id):
    """No vacuous credit: game functions that return constants or their input unchanged."""
    result = sample_results(pack_id)[DO_NOTHING]
    assert result.total <= PACKS[pack_id].declaration.max_points / 10


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_reference_solution_scores_full_marks(pack_id):
    pack = PACKS[pack_id]
    [result] = grade_batch(BatchRequest(pack=pack, sources=[pack.reference_dir])).results
    assert result.status == "graded", result.grader_errors
    failed = [f"{t.name}[{t.case}]: {t.message}" for t in result.tests if t.outcome != "passed"]
    assert result.total == pack.declaration.max_points, failed


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_golden_files_are_current(pack_id):
    assert stale_golden(PACKS[pack_id]) == []
