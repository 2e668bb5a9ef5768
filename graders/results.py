"""The result model: the only thing renderers read, and the JSON twin of every report."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

Outcome = Literal["passed", "failed", "error", "skipped"]
Status = Literal["graded", "grader-error", "missing"]  # missing: on the roster, nothing handed in


@dataclass
class TestOutcome:
    """One grader test (one parameter case) on one submission."""

    __test__ = False  # a result record, not a pytest test class

    name: str
    case: str
    outcome: Outcome
    public: bool
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    # What kind of difference a failed case shows, as named by the check: kind -> words
    # (graders.causes); a criterion may charge each kind once (CriterionSpec.causes).
    causes: dict[str, str] = field(default_factory=dict)


@dataclass
class ViolationRecord:
    rule: str
    title: str
    file: str
    message: str
    line: int | None = None
    source_line: str | None = None
    fix: str | None = None
    deduction: float = 0.0
    kind: str = ""  # the checker's own message id (pycodestyle code, ...): proportional criteria


@dataclass
class CauseCharge:
    """One distinct cause a criterion charged once (or listed free): where it shows."""

    kind: str
    words: str
    points: float  # what it cost, once (0: listed, not counted)
    places: list[str] = field(default_factory=list)  # "test_name [case]", or "file.py:3"


@dataclass
class CriterionMark:
    id: str
    title: str
    points: float
    earned: float
    passed: int
    total: int
    notes: list[str] = field(default_factory=list)
    handout: str = ""  # the handout sentence the criterion enforces
    automatic: float | None = None  # what the grader gave, when a TA's override replaced it
    causes: list[CauseCharge] = field(default_factory=list)  # each distinct cause, once


@dataclass
class Deduction:
    """Points taken off the criteria's sum; ``percent``, where set (the late rule), is the
    share of that sum (less the other deductions) it takes, so a TA's override of a
    criterion moves it too (:func:`graders.overrides.apply`)."""

    reason: str
    points: float
    percent: float | None = None


def take_percentages(marks: list[CriterionMark], deductions: list[Deduction]) -> None:
    """Set each percentage deduction (the late rule's) to its share of ``marks`` less the
    other deductions, as :func:`graders.marking.late_deduction` first took it."""
    fixed = sum(d.points for d in deductions if d.percent is None)
    subtotal = max(0.0, sum(mark.earned for mark in marks) - fixed)
    for deduction in deductions:
        if deduction.percent is not None:
            deduction.points = round(subtotal * deduction.percent / 100, 2)


def total_of(marks: list[CriterionMark], deductions: list[Deduction]) -> float:
    """The criteria's sum less the deductions, never below 0."""
    earned = sum(mark.earned for mark in marks)
    return round(max(0.0, earned - sum(d.points for d in deductions)), 2)


@dataclass
class OverrideRecord:
    """A TA's change of one criterion (or of the ``total``), as applied to a result."""

    criterion: str
    points: float
    comment: str
    by: str
    at: str
    automatic: float = 0.0  # the grader's mark it replaced
    stale: bool = False  # the student's code changed since the override was made
    superseded: bool = False  # a later override of the same criterion replaced this one


@dataclass
class SubmissionResult:
    """Everything known about one graded submission."""

    student: str
    assignment: str
    assignment_title: str
    status: Status
    isolation: str
    total: float = 0.0
    max_total: float = 0.0
    criteria: list[CriterionMark] = field(default_factory=list)
    deductions: list[Deduction] = field(default_factory=list)
    tests: list[TestOutcome] = field(default_factory=list)
    violations: list[ViolationRecord] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    grader_errors: list[str] = field(default_factory=list)
    digest: str = ""
    graded_at: str = ""
    seconds: float = 0.0
    mode: str = "full"
    helpers: list[str] = field(default_factory=list)  # the student's own extra modules
    aliases: dict[str, str] = field(default_factory=dict)  # graded name -> file handed in
    ignored: list[str] = field(default_factory=list)  # handed in, not part of the assignment
    automatic_total: float | None = None  # the grader's total, when an override changed it
    overrides: list[OverrideRecord] = field(default_factory=list)
    # who handed it in, from the LMS export (graders.intake) for the reports and LMS exports
    lms_id: str = ""
    display_name: str = ""
    email: str = ""
    submitted_at: str = ""
    lms: dict[str, str] = field(default_factory=dict)

    @property
    def percent(self) -> float:
        return 100.0 * self.total / self.max_total if self.max_total else 0.0

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=False, default=str)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SubmissionResult:
        data = dict(data)
        data["criteria"] = [
            CriterionMark(**{**c, "causes": [CauseCharge(**k) for k in c.get("causes", [])]})
            for c in data.get("criteria", [])
        ]
        data["deductions"] = [Deduction(**d) for d in data.get("deductions", [])]
        data["tests"] = [TestOutcome(**t) for t in data.get("tests", [])]
        data["violations"] = [ViolationRecord(**v) for v in data.get("violations", [])]
        data["overrides"] = [OverrideRecord(**o) for o in data.get("overrides", [])]
        return cls(**data)


def results_json(results: Iterable[SubmissionResult]) -> Iterator[str]:
    """``results.json`` piece by piece, the bytes ``json.dumps(list, indent=1)`` of every
    result's :meth:`~SubmissionResult.to_json` would give: a class of 1,000 never holds the
    whole text, nor every result as a dict, at once."""
    opened = False
    for result in results:
        item = json.dumps(asdict(result), indent=1, default=str)
        yield ("," if opened else "[") + "\n " + item.replace("\n", "\n ")
        opened = True
    yield "\n]" if opened else "[]"


def write_atomic(path: Path, text: str | Iterable[str]) -> None:
    """Write ``text`` (or its pieces, one after another) to ``path`` so that readers see the
    old file or the new, never half.

    The file gets the permissions the umask allows (a TA sharing the machine can read reports
    under ``umask 022``), and its bytes reach the disk before the rename makes it visible."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            for piece in [text] if isinstance(text, str) else text:
                stream.write(piece)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
