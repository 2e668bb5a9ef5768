"""Results built directly with the engine's result model (no grading): a real pack's
criteria, a student's files, marks, a late deduction and LMS facts, recorded as runs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from graders.gradebook.record import record_run
from graders.gradebook.store import Gradebook, RunFacts
from graders.pack import get_pack
from graders.results import CriterionMark, Deduction, SubmissionResult
from graders.results import TestOutcome as Case  # not "Test*": pytest would collect it

PACKS = ("altnim", "game_of_nim", "stonehenge", "tippy", "pnt")


def result(pack_id: str, student: str, share: float = 1.0, *, code: str = "v1",
           late: float = 0.0, submitted_at: str = "2026-10-01T12:00:00+00:00",
           **changes: Any) -> SubmissionResult:
    """``student``'s result: every criterion of the pack at ``share`` of its points, less
    ``late`` points for the late rule; ``code`` stands for the files handed in."""
    pack = get_pack(pack_id)
    criteria = [CriterionMark(id=c.id, title=c.title, points=c.points,
                              earned=round(c.points * share, 2), passed=1, total=1)
                for c in pack.declaration.criteria]
    earned = sum(mark.earned for mark in criteria)
    deductions = [Deduction(reason=f"late by 2 hours: 2 started hour(s) x {late / 2:g}%",
                            points=late)] if late else []
    base = SubmissionResult(
        student=student, assignment=pack.id, assignment_title=pack.title, status="graded",
        isolation="bubblewrap", total=round(earned - late, 2),
        max_total=pack.declaration.max_points, criteria=criteria, deductions=deductions,
        tests=[Case(name="test_one", case="c1", outcome="passed" if share else "failed",
                    public=False, causes={} if share else {"c1": "wrong-value"})],
        files={"main.py": f"# {student} {code}\n"}, graded_at="2026-10-02T00:00:00+00:00",
        lms_id=f"id-{student}", display_name=student.title(), submitted_at=submitted_at,
        lms={"layout": "moodle"},
    )
    return replace(base, **changes)


def run_facts(pack: str = "p1", *, due: str = "", harness: str = "h1",
              report_dir: str = "") -> RunFacts:
    """A run's facts, with the digests named outright."""
    return RunFacts(at="2026-10-02T00:00:00+00:00", harness_digest=harness, pack_digest=pack,
                    options={"jobs": 1}, due=due, times_digest="t", report_dir=report_dir)


def record(book: Gradebook, results: list[SubmissionResult], **facts: Any) -> int:
    """Record ``results`` (all of one pack) as a run; its id."""
    return record_run(book, get_pack(results[0].assignment), results, run_facts(**facts))
