"""Submission times come from the instructor, never from the student's files.

``grade --times FILE`` reads a CSV with a header ``student,submitted_at``: the student's id as
grading shows it (the folder name, the zip's stem, or ``Jane Doe (12345)`` for an LMS export)
or their LMS id (``12345``), and an ISO 8601 time WITH a timezone (``2015-03-05T23:10:00-05:00``
or ``...Z``). LMS exports that carry times give them through their intake layout; a time in
this file wins over the export's. A bad file is the instructor's error, named at start-up with
its line, before anyone is graded: a time without a timezone cannot be compared with a due
date, and a name no submission has is most likely a typo that would leave someone on time.
A student's own files never give a time (``submission_meta.json`` is ignored).

``grade --extensions FILE`` (header ``student,due``, the same ids and ISO 8601 times with a
zone) gives a student a due date of their own: an extension, or an accommodation. The late rule
then counts from it, and the student's report says so.

The samples of a pack take their times from ``fixtures/<id>/times.csv`` the same way.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from graders.errors import GraderError

COLUMNS = ("student", "submitted_at")
EXTENSION_COLUMNS = ("student", "due")


class InstructorTimes(dict[str, datetime]):
    """Times by student (a dict), remembering the file's option and the line each came from."""

    def __init__(self, path: Path, option: str = "--times") -> None:
        super().__init__()
        self.path = path
        self.option = option
        self.lines: dict[str, int] = {}

    def check_known(self, known: set[str]) -> None:
        """GraderError naming the first line whose student is in no submission."""
        for student, line in sorted(self.lines.items(), key=lambda item: item[1]):
            if student not in known:
                raise GraderError(
                    f"{self.option} {self.path}, line {line}: no submission is called {student!r} "
                    "(use the id grading shows, or the LMS id)"
                )


def load_times(path: Path) -> InstructorTimes:
    """Each student's submission time from ``path``; GraderError names the line at fault."""
    return _load(path, "--times", COLUMNS)


def load_extensions(path: Path) -> InstructorTimes:
    """Each listed student's own due date from ``path`` (``student,due``)."""
    return _load(path, "--extensions", EXTENSION_COLUMNS)


def instructor_rows(path: Path, option: str,
                    columns: tuple[str, str]) -> Iterator[tuple[str, int, str, str]]:
    """``(where, line, first, second)`` for each row of an instructor's two-column CSV
    (``--times``, ``--extensions``, ``--teams``), blank rows skipped; GraderError names the
    file, the line and what was expected."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise GraderError(f"{option} {path}: cannot be read ({exc})") from None
    rows = csv.reader(text.splitlines())
    header = [cell.strip().lower() for cell in next(rows, [])]
    if tuple(header[:2]) != columns:
        raise GraderError(
            f"{option} {path}, line 1: the header must be `{','.join(columns)}` (got "
            f"`{','.join(header)}`)"
        )
    for number, row in enumerate(rows, start=2):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        where = f"{option} {path}, line {number}"
        if len(cells) < 2 or not cells[0] or not cells[1]:
            raise GraderError(f"{where}: expected `{','.join(columns)}`, got `{','.join(row)}`")
        yield where, number, cells[0], cells[1]


def _load(path: Path, option: str, columns: tuple[str, str]) -> InstructorTimes:
    times = InstructorTimes(path, option)
    for where, number, student, text in instructor_rows(path, option, columns):
        if student in times:
            raise GraderError(f"{where}: {student!r} has a time already")
        times[student] = _parsed(where, text)
        times.lines[student] = number
    return times


def _parsed(where: str, text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise GraderError(f"{where}: {text!r} is not an ISO 8601 time") from None
    if when.tzinfo is None or when.utcoffset() is None:
        raise GraderError(
            f"{where}: {text!r} has no timezone; write it with an offset, e.g. "
            f"{text}-05:00 or {text}Z"
        )
    return when
