"""Student-safe feedback pages: ``<report>/feedback/<student>.html``, one per student.

What the student may read, and nothing else: marks per criterion, deductions, rule violations
in their own code, visible tests in full, and for hidden tests only the test's name and how
many of its cases passed, never a case's parameters, inputs, expected output or message.
Grader errors are reported as "incomplete" without their text (a traceback can quote hidden
data). Rendered with jinja2 (autoescape, StrictUndefined) into self-contained HTML.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, Template, select_autoescape

from graders.feedback.visibility import shown_in_full
from graders.pack import Pack
from graders.results import SubmissionResult, TestOutcome, write_atomic
from graders.submissions import slugify

CSP = ("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("graders.feedback", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@functools.cache
def _page_template() -> Template:
    """Compiled once per process (each share's worker makes a writer)."""
    return environment().get_template("feedback.html.j2")


@dataclass
class HiddenTest:
    """A hidden test as the student sees it: its name and how many cases passed."""

    name: str
    passed: int = 0
    total: int = 0
    criteria: list[str] = field(default_factory=list)


@dataclass
class FeedbackView:
    """Only what a student may read of a result."""

    result: SubmissionResult
    visible: list[TestOutcome]
    hidden: list[HiddenTest]
    incomplete: bool


def student_view(
    pack: Pack, result: SubmissionResult, due: datetime | None, now: datetime | None = None
) -> FeedbackView:
    """Split ``result``'s tests into those shown in full and hidden ones (name, pass count)."""
    now = now or datetime.now(UTC)
    visible: list[TestOutcome] = []
    hidden: dict[str, HiddenTest] = {}
    for test in result.tests:
        if test.outcome == "error":
            continue  # the grader's problem, reported as "incomplete"
        if shown_in_full(pack, test, due, now):
            visible.append(test)
            continue
        entry = hidden.setdefault(test.name, HiddenTest(test.name))
        entry.total += 1
        entry.passed += test.outcome == "passed"
    incomplete = result.status == "grader-error" or any(t.outcome == "error" for t in result.tests)
    return FeedbackView(result, visible, list(hidden.values()), incomplete)


class FeedbackWriter:
    """Writes ``<folder>/<slug>.html`` for each student."""

    def __init__(self, folder: Path, pack: Pack, due: datetime | None = None) -> None:
        self.folder = folder
        self.pack = pack
        self.due = due
        self.template = _page_template()

    def path(self, student: str) -> Path:
        return self.folder / f"{slugify(student)}.html"

    def render(self, result: SubmissionResult) -> str:
        # A student with a due date of their own (--extensions) sees what is shown "after the
        # due date" only after theirs: before it, they may still hand in again.
        own = result.lms.get("due")
        view = student_view(self.pack, result, datetime.fromisoformat(own) if own else self.due)
        name = result.display_name or result.student
        return self.template.render(v=view, r=result, name=name, csp=CSP, fmt=_points)

    def write(self, result: SubmissionResult) -> None:
        if result.status == "missing":
            return
        write_atomic(self.path(result.student), self.render(result))


def _points(value: Any) -> str:
    return f"{float(value):g}"
