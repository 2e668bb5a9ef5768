"""game_of_nim: checks on the graded samples beyond tests/packs/test_every_pack.py."""

from __future__ import annotations

import pytest
from game_of_nim_harness import HANDOUT_TRANSCRIPT, REFERENCE, SUBMISSIONS, TEMPLATES


@pytest.fixture(scope="module")
def results(sample_results):
    return sample_results("game_of_nim")


def test_reference_and_bare_template_samples_are_current():
    reference = (SUBMISSIONS / "reference" / "game_of_nim.py").read_text()
    template = (SUBMISSIONS / "bare_template" / "game_of_nim.py").read_text()
    assert reference == REFERENCE.read_text()
    assert template == (TEMPLATES / "game_of_nim.py").read_text()


def test_notes_explain_what_is_not_graded(results):
    notes = {t.name: t for t in results["other_names"].tests}["test_notes"]
    assert notes.outcome == "skipped"
    assert "'piles'" in notes.message and "['P1', 'P2']" in notes.message
    assert {t.name: t for t in results["reference"].tests}["test_notes"].outcome == "passed"


def test_golden_transcript_is_the_handouts_game():
    golden = (TEMPLATES / "handout.transcript").read_text()
    assert golden.split() == HANDOUT_TRANSCRIPT.split()
