"""Self-checks of the PNT pack: every sample submission gets exactly its expected marks."""

from __future__ import annotations

import json

import pytest

from graders.golden import stale_golden
from graders.packs import get_pack
from graders.selfcheck import expected_by_student, mismatches

PACK = get_pack("pnt")
EXPECTED = expected_by_student(PACK)


@pytest.fixture(scope="module")
def graded(graded_samples):
    return graded_samples("pnt")


@pytest.fixture(scope="module")
def results(graded):
    outcome, _ = graded
    return {result.student: result for result in outcome.results}


def test_there_are_enough_samples():
    assert len(EXPECTED) >= 11


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_sample_gets_expected_marks(results, student):
    assert student in results, f"sample {student} was not graded"
    assert mismatches(results[student], EXPECTED[student]) == []


def test_correct_sample_scores_full_marks(results):
    assert results["correct"].total == PACK.declaration.max_points


def test_every_sample_is_graded_without_grader_error(graded):
    outcome, _ = graded
    assert outcome.ok, [r.grader_errors for r in outcome.results if r.grader_errors]


def test_report_shows_input_expected_and_actual(graded):
    _, reports = graded
    page = json.loads((reports / "students" / "no_pruning.json").read_text())
    [failure] = [t for t in page["tests"] if t["name"] == "test_visited" and t["case"] == "input2"]
    assert failure["message"] == "case input2: Number of Nodes Visited: expected 12, got 13"
    details = failure["details"]
    assert details["input"] == "python3 pnt.py 7 1 1 2"
    assert {r["field"]: (r["expected"], r["got"]) for r in details["rows"]}[
        "Number of Nodes Evaluated"
    ] == ("7", "8")
    assert details["stdout"].startswith("Move: 5\n")
    html = (reports / "students" / "no_pruning.html").read_text()
    assert "python3 pnt.py 7 1 1 2" in html and 'data-testid="fields"' in html


def test_timeout_is_named(results):
    [failure] = [
        t for t in results["infinite_loop"].tests if t.name == "test_move" and t.case == "input1"
    ]
    assert "did not finish within 10 s" in failure.message


def test_golden_files_are_current():
    assert stale_golden(PACK) == []
