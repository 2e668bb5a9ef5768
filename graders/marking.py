"""Marks from outcomes: the pack's criteria, rule deductions and the late rule."""

from __future__ import annotations

import math
from datetime import datetime
from fnmatch import fnmatch

from graders.declaration import CriterionSpec
from graders.packs import Pack
from graders.results import CriterionMark, Deduction, TestOutcome, ViolationRecord


def feeds(criterion: CriterionSpec, test_name: str) -> bool:
    """Whether grader test ``test_name`` counts towards ``criterion`` (the one place the rule
    lives: the marking and the report's per-criterion lists both call it)."""
    return any(fnmatch(test_name, pattern) for pattern in criterion.tests)


def mark_criteria(
    pack: Pack, tests: list[TestOutcome], violations: list[ViolationRecord], *, public_only: bool
) -> tuple[list[CriterionMark], list[str]]:
    """Per-criterion marks, and grader problems found on the way (e.g. a criterion with no
    tests: a pack bug, never a zero for the student)."""
    marks, problems = [], []
    broken = {v.rule for v in violations}
    for criterion in pack.declaration.criteria:
        mine = [t for t in tests if feeds(criterion, t.name)]
        counted = [t for t in mine if t.outcome in ("passed", "failed")]
        notes = []
        if criterion.tests and not mine and not public_only:
            problems.append(f"criterion {criterion.id!r} matched no grader test")
        if any(t.outcome == "error" for t in mine):
            notes.append("some tests could not run because of a grader error")
        fraction = sum(t.outcome == "passed" for t in counted) / len(counted) if counted else 1.0
        if not criterion.tests and not criterion.rules:
            fraction = 0.0
        rule_hits = sorted(set(criterion.rules) & broken)
        if rule_hits:
            fraction = 0.0
            notes.append("broken rule(s): " + ", ".join(rule_hits))
        marks.append(
            CriterionMark(
                id=criterion.id,
                title=criterion.title,
                points=criterion.points,
                earned=round(criterion.points * fraction, 2),
                passed=sum(t.outcome == "passed" for t in counted),
                total=len(counted),
                notes=notes,
            )
        )
    return marks, problems


def deductions_for(violations: list[ViolationRecord]) -> list[Deduction]:
    """One deduction per broken rule (however many times it is broken)."""
    seen: dict[str, Deduction] = {}
    for violation in violations:
        if violation.deduction > 0 and violation.rule not in seen:
            count = sum(v.rule == violation.rule for v in violations)
            reason = f"{violation.title} ({count} place{'s' if count > 1 else ''})"
            seen[violation.rule] = Deduction(reason=reason, points=violation.deduction)
    return list(seen.values())


def late_deduction(
    pack: Pack, submitted_at: datetime | None, due: datetime | None, subtotal: float
) -> Deduction | None:
    """The pack's per-started-hour late rule, or None when on time or not applicable."""
    rate = pack.declaration.late.percent_per_hour
    due = due or pack.declaration.late.due
    if not rate or due is None or submitted_at is None or submitted_at <= due:
        return None
    hours = math.ceil((submitted_at - due).total_seconds() / 3600)
    percent = min(100.0, rate * hours)
    late_by = submitted_at - due
    reason = f"late by {_span(late_by.total_seconds())}: {hours} started hour(s) x {rate:g}%"
    return Deduction(reason=reason, points=round(subtotal * percent / 100, 2))


def total_of(marks: list[CriterionMark], deductions: list[Deduction]) -> float:
    earned = sum(mark.earned for mark in marks)
    return round(max(0.0, earned - sum(d.points for d in deductions)), 2)


def _span(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{minutes // 60} h {minutes % 60} min"
