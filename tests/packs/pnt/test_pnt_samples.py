"""pnt: checks on the graded samples beyond tests/packs/test_every_pack.py."""

from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="module")
def graded(graded_samples):
    return graded_samples("pnt")


@pytest.fixture(scope="module")
def results(graded):
    outcome, _ = graded
    return {result.student: result for result in outcome.results}


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
