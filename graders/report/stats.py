"""Class statistics for the index: why each row lost marks, per-criterion histograms, per-test
pass rates and the most common failures. Display only: nothing here changes a result.

Grader-error results are left out of every figure (their marks are incomplete).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graders.marking import feeds
from graders.pack import Pack
from graders.results import SubmissionResult, TestOutcome
from graders.specs import CriterionSpec

TOP_FAILURES = 10
MESSAGE_CHARS = 160
# Problems found while collecting or parsing: they explain every test failure that follows.
PROBLEM_REASONS = {"no-submission": "no submission", "missing-file": "missing file",
                   "syntax-error": "syntax error", "empty-file": "empty file"}
# The grader's operation that met a failure (`play` raised ...): not part of its cause.
OPERATION = re.compile(r"^`[^`\n]+`(?P<raised> raised)?:? ")
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
LISTED = re.compile(r"\[[^\[\]]*\]")  # a case's values: a board, moves, names
TUPLES = re.compile(r"\((?:N, )*N\)(?:, \((?:N, )*N\))*")
BINS = ("0", "1\u201324%", "25\u201349%", "50\u201374%", "75\u201399%", "full")


def reasons(result: SubmissionResult) -> list[str]:
    """Why a row lost marks, in words a TA filters by: grader error, missing file, syntax
    error, empty file, timeout, crash, "raised NameError", or "N failed tests"."""
    found: list[str] = []

    def add(reason: str) -> None:
        if reason not in found:
            found.append(reason)

    if result.status == "grader-error":
        add("grader error")
    for violation in result.violations:
        if violation.rule in PROBLEM_REASONS:
            add(PROBLEM_REASONS[violation.rule])
    explained = bool(found)
    failed = [test for test in result.tests if test.outcome == "failed"]
    for test in failed:
        kind = test.details.get("kind")
        if kind in ("timeout", "crash"):
            add(str(kind))
        elif kind == "exception" and not explained:
            add(f"raised {test.details.get('type') or 'an exception'}")
    if failed and not found:
        add(f"{len(failed)} failed test{'s' if len(failed) > 1 else ''}")
    return found


def counted_tests(pack: Pack, result: SubmissionResult) -> tuple[int, int]:
    """``(passed, counted)``: the tests that count are those run (not skipped) that feed a
    criterion worth points; a 0-point or skipped test is in neither number."""
    worth = [c for c in pack.declaration.criteria if c.points > 0]
    counted = [test for test in result.tests if test.outcome != "skipped"
               and any(feeds(criterion, test.name) for criterion in worth)]
    return sum(test.outcome == "passed" for test in counted), len(counted)


def graded(results: Sequence[SubmissionResult]) -> list[SubmissionResult]:
    return [result for result in results if result.status == "graded"]


@dataclass
class Histogram:
    """How the class did on one criterion: counts per band of the points, and the mean."""

    id: str
    title: str
    points: float
    mean: float | None
    counts: list[int] = field(default_factory=list)

    @property
    def bars(self) -> list[dict[str, Any]]:
        """SVG bars (x, y, height in a 120x40 box) with their label and count."""
        top = max(self.counts, default=0) or 1
        width = 120 / len(BINS)
        return [
            {"x": round(i * width + 1, 1), "w": round(width - 2, 1),
             "h": round(36 * count / top, 1), "y": round(38 - 36 * count / top, 1),
             "label": label, "count": count}
            for i, (label, count) in enumerate(zip(BINS, self.counts, strict=True))
        ]


def band_of(earned: float, points: float) -> int:
    """Index in BINS of a criterion mark."""
    if earned <= 0 or points <= 0:
        return 0
    if earned >= points:
        return len(BINS) - 1
    return 1 + min(3, int(4 * earned / points))


def histograms(results: Sequence[SubmissionResult],
               criteria: Sequence[CriterionSpec]) -> list[Histogram]:
    """One histogram per criterion, over the graded results."""
    rows = graded(results)
    out = []
    for criterion in criteria:
        values = [mark.earned for result in rows for mark in result.criteria
                  if mark.id == criterion.id]
        counts = [0] * len(BINS)
        for value in values:
            counts[band_of(value, criterion.points)] += 1
        mean = statistics.fmean(values) if values else None
        out.append(Histogram(criterion.id, criterion.title, criterion.points, mean, counts))
    return out


def test_rates(results: Sequence[SubmissionResult]) -> list[dict[str, Any]]:
    """Per test function: cases passed of those run, and the students who failed a case."""
    table: dict[str, dict[str, Any]] = {}
    for result in graded(results):
        for test in result.tests:
            if test.outcome not in ("passed", "failed"):
                continue
            row = table.setdefault(test.name, {"name": test.name, "passed": 0, "run": 0,
                                               "students": set()})
            row["run"] += 1
            row["passed"] += test.outcome == "passed"
            if test.outcome == "failed":
                row["students"].add(result.student)
    rows = list(table.values())
    for row in rows:
        row["rate"] = row["passed"] / row["run"] if row["run"] else 0.0
        row["students"] = sorted(row["students"], key=str.lower)
    return sorted(rows, key=lambda row: (row["rate"], row["name"]))


def failure_message(message: str) -> str:
    """A failure message reduced to its first line: what groups the same failure."""
    first = next((line.strip() for line in message.splitlines() if line.strip()), "")
    return first if len(first) <= MESSAGE_CHARS else first[: MESSAGE_CHARS - 1] + "\u2026"


def failure_cause(test: TestOutcome) -> str:
    """What a failure is, as the class page groups it: the causes the engine names for it
    (their words), else the first line of its message without the grader's operation that
    met it and with its numbers (counts, cases) as N: one missing class met by four driver
    operations, or one style criterion with 3 or 5 kinds of message, is one failure."""
    if test.causes:
        return "; ".join(sorted(set(test.causes.values())))
    first = next((line.strip() for line in test.message.splitlines() if line.strip()), "")
    text = NUMBER.sub("N", OPERATION.sub(lambda m: "your code raised " if m["raised"] else "",
                                         first))
    text = TUPLES.sub("(\u2026)", text)
    while LISTED.search(text):
        text = LISTED.sub("\u2039\u2026\u203a", text)
    return failure_message(text.replace("\u2039\u2026\u203a", "[\u2026]"))


def common_failures(results: Sequence[SubmissionResult],
                    limit: int = TOP_FAILURES) -> list[dict[str, Any]]:
    """The ``limit`` failures most students hit, grouped by :func:`failure_cause`:
    ``{"token", "message", "tests", "students", "cases"}``, most students first; ``cases``
    counts the failed cases; ``token`` (``fail:01``...) is what the index's filter matches on
    those students' rows."""
    groups: dict[str, dict[str, Any]] = {}
    for result in graded(results):
        for test in result.tests:
            if test.outcome != "failed":
                continue
            text = failure_cause(test)
            group = groups.setdefault(text, {"message": text, "tests": set(), "students": set(),
                                             "cases": 0})
            group["tests"].add(test.name)
            group["students"].add(result.student)
            group["cases"] += 1
    ranked = sorted(groups.values(), key=lambda g: (-len(g["students"]), g["message"]))[:limit]
    for number, group in enumerate(ranked, 1):
        group["token"] = f"fail:{number:02d}"
        group["tests"] = sorted(group["tests"])
        group["members"] = frozenset(group["students"])
        group["students"] = sorted(group["students"], key=str.lower)
    return ranked


def row_tokens(result: SubmissionResult, failures: Sequence[dict[str, Any]]) -> str:
    """Hidden words the index's filter also matches on a row: its common-failure tokens and
    ``failed:<test>`` for each test it failed."""
    tokens = [group["token"] for group in failures if result.student in group["members"]]
    tokens += sorted({f"failed:{t.name}" for t in result.tests if t.outcome == "failed"})
    return " ".join(tokens)
