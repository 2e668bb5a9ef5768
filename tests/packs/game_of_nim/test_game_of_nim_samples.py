"""Self-checks of the game_of_nim pack: every sample gets exactly its expected marks."""

from __future__ import annotations

import pytest
from game_of_nim_harness import HANDOUT_TRANSCRIPT, REFERENCE, SUBMISSIONS, TEMPLATES

from graders.golden import stale_golden
from graders.packs import get_pack
from graders.selfcheck import expected_by_student, mismatches

PACK = get_pack("game_of_nim")
EXPECTED = expected_by_student(PACK)


@pytest.fixture(scope="module")
def results(graded_samples):
    outcome, _ = graded_samples("game_of_nim")
    return {result.student: result for result in outcome.results}


def test_there_are_enough_samples():
    assert len(EXPECTED) >= 12


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_sample_gets_expected_marks(results, student):
    assert student in results, f"sample {student} was not graded"
    assert mismatches(results[student], EXPECTED[student]) == []


def test_reference_and_bare_template_samples_are_current():
    reference = (SUBMISSIONS / "reference" / "game_of_nim.py").read_text()
    template = (SUBMISSIONS / "bare_template" / "game_of_nim.py").read_text()
    assert reference == REFERENCE.read_text()
    assert template == (TEMPLATES / "game_of_nim.py").read_text()


def test_reference_scores_full_marks(results):
    assert results["reference"].total == PACK.declaration.max_points


def test_every_sample_is_graded_without_grader_error(graded_samples):
    outcome, _ = graded_samples("game_of_nim")
    assert outcome.ok, [r.grader_errors for r in outcome.results if r.grader_errors]


def test_notes_explain_what_is_not_graded(results):
    notes = {t.name: t for t in results["other_names"].tests}["test_notes"]
    assert notes.outcome == "skipped"
    assert "'piles'" in notes.message and "['P1', 'P2']" in notes.message
    assert {t.name: t for t in results["reference"].tests}["test_notes"].outcome == "passed"


def test_golden_files_are_current():
    assert stale_golden(PACK) == []


def test_golden_transcript_is_the_handouts_game():
    golden = (TEMPLATES / "handout.transcript").read_text()
    assert golden.split() == HANDOUT_TRANSCRIPT.split()
