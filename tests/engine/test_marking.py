"""Marks from outcomes: shares per test case, one deduction per rule, the late rule."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from graders.declaration import Declaration
from graders.marking import deductions_for, late_deduction, mark_criteria
from graders.pack import Pack, get_pack
from graders.results import TestOutcome, ViolationRecord, total_of

ALTNIM = get_pack("altnim")
DUE = datetime(2015, 3, 5, 22, 0, tzinfo=timezone(timedelta(hours=-5)))


def outcome(name: str, result: str = "passed") -> TestOutcome:
    return TestOutcome(name=name, case="", outcome=result, public=False)  # type: ignore[arg-type]


def violation(rule: str, deduction: float) -> ViolationRecord:
    return ViolationRecord(rule=rule, title=rule, file="f.py", message="m", deduction=deduction)


def test_each_test_case_is_an_equal_share_of_its_criterion():
    tests = [
        outcome("test_eval_matches_reference"),
        outcome("test_removals_match_reference"),
        outcome("test_apply_matches_reference", "failed"),
        outcome("test_apply_leaves_input_unchanged"),
        outcome("test_is_leaf_matches_reference"),
    ]
    marks, problems = mark_criteria(ALTNIM, tests, [], public_only=False)
    earned = {mark.id: mark.earned for mark in marks}
    assert earned["helpers"] == pytest.approx(15 * 3 / 4)
    assert earned["eval"] == 15
    assert set(problems) == {
        f"criterion {c!r} matched no grader test" for c in ("output", "game", "minimax")
    }


def test_grader_errors_never_count_against_the_student():
    tests = [outcome("test_eval_matches_reference", "error")]
    marks, _ = mark_criteria(ALTNIM, tests, [], public_only=False)
    [evaluation] = [mark for mark in marks if mark.id == "eval"]
    assert evaluation.total == 0 and "grader error" in evaluation.notes[0]


def test_a_rule_is_deducted_once_however_often_it_is_broken():
    deductions = deductions_for(
        [
            violation("module-global", 10),
            violation("module-global", 10),
            violation("header-block", 5),
            violation("syntax-error", 0),
        ]
    )
    assert [(d.points, d.reason) for d in deductions] == [
        (10, "module-global (2 places)"),
        (5, "header-block (1 place)"),
    ]
    assert total_of([], deductions) == 0


def late_pack(rate: float) -> Pack:
    data = ALTNIM.declaration.model_dump()
    data["late"] = {"due": DUE, "percent_per_hour": rate}
    return Pack(Declaration.model_validate(data), ALTNIM.dir, ALTNIM.root)


@pytest.mark.parametrize(
    ("late_by", "percent"),
    [
        (timedelta(0), None),
        (timedelta(minutes=1), 5),
        (timedelta(hours=1), 5),
        (timedelta(hours=2, minutes=10), 15),
        (timedelta(hours=40), 100),
    ],
)
def test_late_rule_counts_started_hours(late_by, percent):
    deduction = late_deduction(late_pack(5), DUE + late_by, None, 80)
    if percent is None:
        assert deduction is None
    else:
        assert deduction is not None and deduction.points == pytest.approx(80 * percent / 100)


def test_command_line_due_date_overrides_the_pack():
    later = DUE + timedelta(days=1)
    assert late_deduction(late_pack(5), DUE + timedelta(hours=3), later, 80) is None
