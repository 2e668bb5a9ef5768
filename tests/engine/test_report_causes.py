"""The student page shows each charged cause once, with the cases where it shows."""

from __future__ import annotations

import re

from graders.marking import mark_one
from graders.pack import get_pack
from graders.report import ReportWriter, views
from graders.results import SubmissionResult
from graders.results import TestOutcome as Outcome  # not "Test*": pytest would collect it
from graders.sandbox import Isolation
from graders.specs import CriterionSpec

EXTRA = {"extra-line-after": "an extra line after the output"}
CASES = [f"hidden{k}" for k in range(1, 28)]


def extra_line(case: str) -> Outcome:
    # each case printed another running time: the messages and details all differ
    return Outcome(name="test_format", case=case, outcome="failed", public=False,
                   message=f"case {case}: line 7 is not an output line: 'Execution time: "
                           f"0.00{len(case)}{case[-1]} seconds'",
                   details={"kind": "fields", "rows": [], "stdout": case}, causes=EXTRA)


def test_one_cause_in_every_case_is_one_failure_and_one_charge(tmp_path):
    tests = [extra_line(case) for case in CASES]
    criterion = CriterionSpec(id="format", title="Format", points=15, tests=["test_format"],
                              causes={"extra-line-after": 3})
    mark = mark_one(criterion, tests, [])
    result = SubmissionResult(student="ana", assignment="altnim", assignment_title="a",
                              status="graded", isolation="bubblewrap", total=12,
                              max_total=15, criteria=[mark], tests=tests)
    [group] = views.failure_groups(result)
    assert len(group["items"]) == 27 and len(group["variants"]) == 1
    assert views.cause_places(mark.causes[0]) == (
        "test_format (27 cases: hidden1, hidden2, hidden3, hidden4, hidden5, hidden6, "
        "hidden7, hidden8, \u2026)")
    writer = ReportWriter(tmp_path, get_pack("altnim"))
    writer.write_student(result)
    writer.write_index([result], Isolation.BUBBLEWRAP)
    page = (tmp_path / "students" / "ana.html").read_text(encoding="utf-8")
    [shown] = re.findall(r'<ul class="small causes" data-testid="causes">(.*?)</ul>', page)
    assert "an extra line after the output" in shown and "charged once" in shown
    assert "27 cases" in shown
    assert page.count('<details class="test') == 1 and "&times;27" in page
    assert page.count('data-testid="cause"') == 1
