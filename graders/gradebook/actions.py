"""What the gradebook's commands do, each one function opening and closing the gradebook:
``grade gradebook`` (:func:`refresh`), ``grade history`` (:func:`student_history`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from graders import overrides
from graders.errors import GraderError
from graders.gradebook import Where
from graders.gradebook.history import History
from graders.gradebook.pages import history_of, rebuild, write_history, write_term
from graders.gradebook.schema import Run
from graders.gradebook.sync import sync_overrides
from graders.results import SubmissionResult


def refresh(where: Where, *, everything: bool = False,
            imported: tuple[str, Path] | None = None) -> list[str]:
    """Record an overrides file's entries for an assignment (``imported``), rebuild the
    pages of each assignment whose folder is gone (all with ``everything``), write the term
    page; what was done, one line each."""
    book = where.open()
    said: list[str] = []
    try:
        also = set()
        if imported is not None:
            assignment, path = imported
            entries, problems = overrides.load(path)
            said += problems
            added = book.import_overrides(assignment, entries)
            sync_overrides(book, assignment, where.reports / assignment)
            said.append(f"{assignment}: {added} override(s) imported")
            also.add(assignment)
        for done in rebuild(book, where.reports, everything=everything, also=also):
            said.append(f"{done}: pages written from the gradebook")
        said.append(f"Term: {write_term(book, where.reports)}")
    finally:
        book.close()
    return said


def student_history(where: Where, assignment: str,
                    pick: Callable[[list[SubmissionResult]], str]) -> tuple[History, Path]:
    """The history of the student ``pick`` chooses among everyone the assignment's runs
    graded, and the page written for it."""
    book = where.open()
    try:
        runs = book.runs(assignment)
        if not runs:
            raise GraderError(f"the gradebook holds no run of {assignment}: grade it first")
        found = history_of(book, assignment, pick(everyone(runs)))
    finally:
        book.close()
    return found, write_history(None, where.reports, found)


def everyone(runs: list[Run]) -> list[SubmissionResult]:
    """Each student ever graded in ``runs``, with what a lookup by id, LMS id or name needs
    (their latest facts)."""
    seen: dict[str, SubmissionResult] = {}
    for run in reversed(runs):
        for row in run.results:
            if row.name not in seen:
                seen[row.name] = SubmissionResult(
                    student=row.name, assignment=run.assignment_id, assignment_title="",
                    status="graded", isolation="", lms_id=row.student.lms_id,
                    display_name=row.student.display_name)
    return list(seen.values())
