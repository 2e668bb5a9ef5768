"""Marks from outcomes: the pack's criteria, rule deductions and the late rule."""

from __future__ import annotations

import math
from datetime import datetime
from fnmatch import fnmatch

from graders.causes import place
from graders.pack import Pack
from graders.results import (
    CauseCharge,
    CriterionMark,
    Deduction,
    TestOutcome,
    ViolationRecord,
)
from graders.specs import CriterionSpec


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
    for criterion in pack.declaration.criteria:
        mine = [t for t in tests if feeds(criterion, t.name)]
        if criterion.tests and not mine and not public_only:
            problems.append(f"criterion {criterion.id!r} matched no grader test")
        marks.append(mark_one(criterion, mine, violations))
    return marks, problems


def mark_one(
    criterion: CriterionSpec, mine: list[TestOutcome], violations: list[ViolationRecord]
) -> CriterionMark:
    """One criterion's mark from the tests that feed it and the student's violations.

    Each counted test case is an equal share; a criterion with nothing counted earns 0 (its
    tests all errored, or it has none): credit is never given for what was not checked.
    A failing case whose every cause (kind of difference) the criterion weighs keeps its
    share, and each distinct cause costs its weight once (:func:`_charged`). A broken rule of
    an all-or-nothing criterion takes every point, unless ``causes`` weighs the rule (then it
    costs that weight once); a proportional one (``per_kind``) loses that much per distinct
    message kind instead.
    """
    counted = [t for t in mine if t.outcome in ("passed", "failed")]
    notes = []
    if any(t.outcome == "error" for t in mine):
        notes.append("some tests could not run because of a grader error")
    if counted:
        fraction = sum(t.outcome == "passed" for t in counted) / len(counted)
    else:
        fraction = 1.0 if criterion.rules and not criterion.tests else 0.0
        if mine:
            notes.append("nothing could be checked, so nothing is earned here")
    hits = [v for v in violations if v.rule in criterion.rules]
    charges: list[CauseCharge] = []
    if criterion.per_kind is not None or criterion.causes or criterion.free_kinds:
        fraction, cause_notes, charges = _charged(criterion, counted, hits, fraction)
        notes += cause_notes
    unweighed = sorted({v.rule for v in hits if v.rule not in criterion.causes})
    if unweighed and criterion.per_kind is None:
        fraction = 0.0
        notes.append("broken rule(s): " + ", ".join(unweighed))
    return CriterionMark(
        id=criterion.id,
        title=criterion.title,
        points=criterion.points,
        earned=round(criterion.points * fraction, 2),
        passed=sum(t.outcome == "passed" or criterion.lists_only(t.details) for t in counted),
        total=len(counted),
        notes=notes,
        handout=criterion.handout,
        causes=charges,
    )


def _causes_of(test: TestOutcome) -> dict[str, tuple[str, list[str]]]:
    """A failed case's kinds of difference: kind -> (words, places). A checker's message
    kinds (``details['kinds']``, with their places) and the check's ``causes`` (shown at the
    case)."""
    found = {str(kind): (str(kind), [str(w) for w in where])
             for kind, where in dict(test.details.get("kinds") or {}).items()}
    for kind, words in test.causes.items():
        found.setdefault(kind, (words, []))[1].append(place(test.name, test.case))
    return found


def _charged(
    criterion: CriterionSpec,
    counted: list[TestOutcome],
    hits: list[ViolationRecord],
    fraction: float,
) -> tuple[float, list[str], list[CauseCharge]]:
    """Each distinct cause charged once at its weight (``causes``, else ``per_kind``),
    capped at the points, on top of the shares of the failing cases no weight explains.

    A failing case is explained when it names at least one cause and every one has a weight
    (or is free): it keeps its share. A proportional criterion (``per_kind``) has no shares:
    a failing test that names no kinds (the file was not handed in, or does not parse)
    forfeits it, since there is no work of the student's to judge."""
    if fraction == 0.0 and not counted and criterion.tests:
        return 0.0, [], []

    free = criterion.is_free

    def weight(kind: str) -> float | None:
        return criterion.causes.get(kind, criterion.per_kind)

    seen: dict[str, tuple[str, list[str]]] = {}
    unexplained = 0
    for test in (t for t in counted if t.outcome == "failed"):
        kinds = _causes_of(test)
        unexplained += not kinds or any(weight(k) is None and not free(k) for k in kinds)
        for kind, (words, where) in kinds.items():
            seen.setdefault(kind, (words, []))[1].extend(where)
    if criterion.per_kind is not None and unexplained:
        return 0.0, ["nothing of yours could be assessed here"], []
    for violation in hits:
        if criterion.per_kind is not None:
            broken = (violation.kind or violation.rule).split(",")
        else:  # an all-or-nothing criterion: only a rule `causes` weighs is a cause
            broken = [violation.rule] if violation.rule in criterion.causes else []
        for kind in broken:
            seen.setdefault(kind, (kind, []))[1].append(
                f"{violation.file}:{violation.line or '?'}")
    charges = [CauseCharge(kind, words, 0.0 if free(kind) else weight(kind) or 0.0, where)
               for kind, (words, where) in sorted(seen.items())
               if free(kind) or weight(kind) is not None]
    lost = min(criterion.points, sum(c.points for c in charges))
    base = (len(counted) - unexplained) / len(counted) if counted else 1.0
    return max(0.0, base - lost / criterion.points), _cause_notes(criterion, charges), charges


def _cause_notes(criterion: CriterionSpec, charges: list[CauseCharge]) -> list[str]:
    """What the charges cost, in words: per kind of message for a plain proportional
    criterion, per cause where the pack weighs causes."""
    charged = [c for c in charges if c.points]
    free = [c.kind for c in charges if not c.points]
    notes = []
    if charged and not criterion.causes and criterion.per_kind is not None:
        notes.append(
            f"{len(charged)} kind(s) of message, {criterion.per_kind:g} point(s) each"
            f" (at most {criterion.points:g}): " + ", ".join(
                f"{c.kind} ({len(c.places)}x)" for c in charged))
    elif charged:
        notes.append(
            f"each cause charged once (at most {criterion.points:g} in all): " + ", ".join(
                f"{c.words} (-{c.points:g}; {len(c.places)} place(s))" for c in charged))
    if free:
        notes.append("listed, not counted: " + ", ".join(free))
    return notes


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
    return Deduction(reason=reason, points=round(subtotal * percent / 100, 2), percent=percent)


def _span(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{minutes // 60} h {minutes % 60} min"
