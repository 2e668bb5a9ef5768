"""pnt: checks on the graded samples beyond tests/packs/test_every_pack.py."""

from __future__ import annotations

import json

import pytest

from graders.pack import get_pack
from graders.packs.pnt.checks import SAMPLE, SAMPLE_NAME, hidden_cases, parse_cases
from graders.packs.pnt.oracle import exposes
from graders.selfcheck import expected_by_student

PACK = get_pack("pnt")
EXPECTED = expected_by_student(PACK)
FLAWED = sorted(name for name, expected in EXPECTED.items() if expected["total"] < 95)
# Samples whose mistake is exactly one flaw of the pack's model (graders/packs/pnt/oracle.py).
ONE_FLAW = {
    "first_move_rule": "first_move_even",
    "eval_sign_min": "eval_sign_min",
    "ties_to_larger": "ties_to_larger",
    "no_pruning": "no_pruning",
    "root_depth_one": "root_depth_one",
}


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


def failing_cases(result) -> set[str]:
    return {test.case for test in result.tests if test.outcome == "failed"}


@pytest.mark.parametrize("name", FLAWED)
def test_each_flawed_sample_fails_at_least_three_cases(results, name: str):
    assert len(failing_cases(results[name])) >= 3


@pytest.mark.parametrize("name", sorted(ONE_FLAW))
def test_flawed_sample_fails_exactly_where_its_rule_is_exposed(results, name: str):
    # The model predicts the real program: the cases it fails are the ones that expose its
    # rule, so the hidden cases chosen for that rule are what costs it marks.
    cases = {**parse_cases(PACK.template_text("testcase.txt")), SAMPLE_NAME: SAMPLE}
    cases |= hidden_cases(PACK)
    exposed = {case for case, position in cases.items() if exposes(position, ONE_FLAW[name])}
    assert failing_cases(results[name]) == exposed


@pytest.mark.parametrize(
    ("name", "program", "others"),
    [
        ("main_py", "main.py", None),
        ("split_modules", "472-Code3/Main.py", None),
        ("old_and_new", "Assignment3.py", None),  # old_version.py never reads sys.argv
        ("two_versions", "pnt_v2.py", "other programs found: `pnt_v1.py`"),
    ],
)
def test_programs_under_other_names_are_found_and_named(results, name, program, others):
    result = results[name]
    [notice] = [v for v in result.violations if v.rule == "program-file"]
    assert notice.file == program and notice.deduction == 0
    if others:
        assert others in notice.message
    else:
        assert "other programs found" not in notice.message
    assert result.total == 100


def test_helper_modules_are_checked_like_the_program(results):
    flagged = {v.file for v in results["old_and_new"].violations if v.rule == "pep8"}
    assert flagged == {"old_version.py"}


def test_constants_earn_nothing_by_chance(results):
    result = results["do_nothing"]
    passed = {test.case for test in result.tests if test.outcome == "passed"}
    assert passed == {"sample"}
    [move] = [t for t in result.tests if t.name == "test_move" and t.case == "input2"]
    assert "printed exactly what it printed for the handout's sample" in move.message


def test_an_extra_line_in_every_output_is_one_slip_charged_once(results):
    result = results["execution_time"]
    failed = [t for t in result.tests if t.outcome == "failed"]
    assert {t.name for t in failed} == {"test_format"} and len(failed) == 27
    assert all(t.causes == {"extra-line-after": "an extra line after the output"}
               for t in failed)
    [fmt] = [m for m in result.criteria if m.id == "format"]
    [charge] = fmt.causes
    assert (charge.kind, charge.points, len(charge.places)) == ("extra-line-after", 3, 27)
    assert fmt.earned == fmt.points - 3
