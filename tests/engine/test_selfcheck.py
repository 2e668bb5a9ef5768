"""A sample's expected.json is checked against its result (``graders.selfcheck.mismatches``)."""

from __future__ import annotations

from graders.results import SubmissionResult, TestOutcome, ViolationRecord
from graders.selfcheck import mismatches

RESULT = SubmissionResult(
    student="s", assignment="toy", assignment_title="Toy", status="graded", isolation="none",
    total=40.0,
    tests=[TestOutcome("test_eval", "", "failed", True, "eval returns +1000 where -1000 is due"),
           TestOutcome("test_moves", "", "passed", True, "a passing test says nothing: moves")],
    violations=[ViolationRecord("syntax-error", "t", "f.py", "Only Python 3.12 reads this")],
)


def test_phrases_a_report_must_say_are_looked_for_in_failures_and_violations():
    """``explains``: every phrase must appear (any case) in a failed test's or a violation's
    message; a passing test's message does not count."""
    expected = {"total": 40, "violations": ["syntax-error"]}
    assert mismatches(RESULT, {**expected, "explains": ["-1000 IS DUE", "python 3.12"]}) == []
    assert mismatches(RESULT, {**expected, "explains": ["moves", "python 3.13"]}) == [
        "no message says 'moves'", "no message says 'python 3.13'"]
