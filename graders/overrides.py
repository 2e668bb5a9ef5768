"""TA overrides: ``reports/<id>/overrides.toml``, an append-only audit trail of mark changes.

Each ``[[override]]`` table sets one criterion (or the ``total``) of one student to ``points``,
with a required ``comment``, who made it (``by``) and when (``at``). ``code`` is the digest of
the student's files when the override was made (``grade override`` records it): a regrade keeps
every override and flags the ones whose student's code changed since. ``lms_id`` is the
student's LMS id when the export gave one (``grade override`` records it): the entry then
follows that id, not the report's name, so a second student of the same name, or a name the
LMS spells differently next time, can never take another student's override. The grader's
own mark is never lost: each overridden criterion keeps it in ``automatic`` and the result in
``automatic_total``, and applying overrides again starts from those, so it can be repeated.

The latest override of a criterion wins; earlier ones stay in the file and on the page,
marked superseded. A criterion override moves the total by the same amount (kept within
0..max); a ``total`` override sets the final total outright.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graders.results import (
    OverrideRecord,
    SubmissionResult,
    take_percentages,
    write_atomic,
)

FILE_NAME = "overrides.toml"
TOTAL = "total"
HEADER = """\
# Mark overrides by the course staff: an audit trail, read by every `grade` run.
# Each [[override]] sets one criterion (or "total") of one student to `points`.
# Add entries with `grade override ID STUDENT --criterion C --points P --comment "..." --by NAME`
# (it records `code`, the digest of the student's files, so a regrade can flag changed code).
# Never delete an entry to undo it: add a newer one (the latest of a criterion wins).
"""
REQUIRED = ("student", "criterion", "points", "comment", "by", "at")
OPTIONAL = ("code", "lms_id")


@dataclass(frozen=True)
class Override:
    """One entry of ``overrides.toml``."""

    student: str
    criterion: str
    points: float
    comment: str
    by: str
    at: str
    code: str = ""
    lms_id: str = ""

    def to_toml(self) -> str:
        """This entry as one ``[[override]]`` table."""
        lines = ["[[override]]"]
        for key in ("student", "criterion", "points", "comment", "by", "at", "code", "lms_id"):
            value = getattr(self, key)
            if key == "lms_id" and not value:
                continue
            lines.append(f"{key} = {_toml_value(value)}")
        return "\n".join(lines) + "\n"


def _toml_value(value: object) -> str:
    if isinstance(value, float):
        return repr(value)
    # A JSON string is a TOML basic string, except that TOML also wants DEL escaped.
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")


def code_digest(files: Mapping[str, str]) -> str:
    """The digest of a student's files (names and texts): what "their code changed" means."""
    hasher = hashlib.sha256()
    for name, text in sorted(files.items()):
        hasher.update(name.encode("utf-8", "surrogatepass") + b"\0")
        hasher.update(text.encode("utf-8", "surrogatepass") + b"\0")
    return hasher.hexdigest()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def load(path: Path) -> tuple[list[Override], list[str]]:
    """The entries of ``path`` (none if it does not exist) and a message per entry that cannot
    be used (each is left out, never guessed at)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [], []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return [], [f"{path.name} could not be read, so no override is applied: {exc}"]
    tables = data.get("override", [])
    if not isinstance(tables, list):
        return [], [f"{path.name}: `override` must be an array of tables ([[override]])"]
    entries, problems = [], []
    for number, table in enumerate(tables, 1):
        try:
            entries.append(parse(table))
        except ValueError as exc:
            problems.append(f"{path.name}, override {number}: {exc}; it is not applied")
    return entries, problems


def parse(table: Any) -> Override:
    """One ``[[override]]`` table, checked (ValueError says what is wrong)."""
    if not isinstance(table, dict):
        raise ValueError("not a table")
    missing = [key for key in REQUIRED if key not in table or table[key] in ("", None)]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    unknown = sorted(set(table) - {*REQUIRED, *OPTIONAL})
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(unknown)}")
    points = table["points"]
    if isinstance(points, bool) or not isinstance(points, int | float):
        raise ValueError(f"points must be a number, not {points!r}")
    texts = {key: table[key] for key in ("student", "criterion", "comment", "by")}
    if not all(isinstance(value, str) and value.strip() for value in texts.values()):
        raise ValueError("student, criterion, comment and by must be non-empty text")
    at = table["at"]
    return Override(
        student=texts["student"], criterion=texts["criterion"].strip(), points=float(points),
        comment=texts["comment"].strip(), by=texts["by"].strip(),
        at=at.isoformat() if isinstance(at, datetime) else str(at),
        code=str(table.get("code", "")), lms_id=str(table.get("lms_id", "")).strip(),
    )


def check(entry: Override, result: SubmissionResult) -> str | None:
    """Why ``entry`` cannot apply to ``result`` (None when it can)."""
    if entry.criterion == TOTAL:
        limit = result.max_total
    else:
        marks = {mark.id: mark for mark in result.criteria}
        if entry.criterion not in marks:
            known = ", ".join([*marks, TOTAL]) or TOTAL
            return f"{entry.student} has no criterion {entry.criterion!r} (known: {known})"
        limit = marks[entry.criterion].points
    if not 0 <= entry.points <= limit:
        return (f"{entry.student}: {entry.criterion} set to {entry.points:g} is outside "
                f"0..{limit:g}")
    return None


def append(path: Path, entry: Override) -> None:
    """Add ``entry`` at the end of ``path`` (created with a header), keeping every line a TA
    wrote by hand; the file is replaced atomically."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = HEADER
    if text and not text.endswith("\n"):
        text += "\n"
    write_atomic(path, f"{text}\n{entry.to_toml()}")


def restore(result: SubmissionResult) -> None:
    """Put the grader's own marks back (undo :func:`apply`)."""
    for mark in result.criteria:
        if mark.automatic is not None:
            mark.earned, mark.automatic = mark.automatic, None
    take_percentages(result.criteria, result.deductions)
    if result.automatic_total is not None:
        result.total, result.automatic_total = result.automatic_total, None
    result.overrides = []


def apply(result: SubmissionResult, entries: Iterable[Override]) -> None:
    """Apply the (checked) entries for ``result.student``, in file order, the latest of each
    criterion winning. Starts from the grader's marks, so applying again changes nothing."""
    restore(result)
    mine = [entry for entry in entries if owns(result, entry)]
    if not mine:
        return
    marks = {mark.id: mark for mark in result.criteria}
    latest = {entry.criterion: entry for entry in mine}
    code = code_digest(result.files)
    result.overrides = [
        OverrideRecord(
            criterion=entry.criterion, points=entry.points, comment=entry.comment, by=entry.by,
            at=entry.at,
            automatic=result.total if entry.criterion == TOTAL else marks[entry.criterion].earned,
            stale=bool(entry.code) and entry.code != code,
            superseded=latest[entry.criterion] is not entry,
        )
        for entry in mine
    ]
    total, taken = result.total, sum(d.points for d in result.deductions)
    for criterion, entry in latest.items():
        if criterion != TOTAL:
            mark = marks[criterion]
            total += entry.points - mark.earned
            mark.automatic, mark.earned = mark.earned, entry.points
    # The late rule takes its share of the marks as the TA set them.
    take_percentages(result.criteria, result.deductions)
    total -= sum(d.points for d in result.deductions) - taken
    if TOTAL in latest:
        total = latest[TOTAL].points
    result.automatic_total = result.total
    result.total = round(min(max(total, 0.0), result.max_total or total), 2)


def owns(result: SubmissionResult, entry: Override) -> bool:
    """Whether ``entry`` is ``result``'s: by LMS id when the entry has one, else by the
    report's name."""
    if entry.lms_id:
        return entry.lms_id == result.lms_id
    return entry.student == result.student


def usable(entries: Iterable[Override], results: Iterable[SubmissionResult]
           ) -> tuple[list[Override], list[str]]:
    """The entries that apply to ``results``, and why each other one does not."""
    results = list(results)
    kept, problems = [], []
    for entry in entries:
        owners = [result for result in results if owns(result, entry)]
        why = (_nobody(entry) if not owners
               else _several(entry, owners) if len(owners) > 1
               else check(entry, owners[0]))
        if why:
            problems.append(f"{FILE_NAME}: {why}; it is not applied")
        else:
            kept.append(entry)
    return kept, problems


def _nobody(entry: Override) -> str:
    if entry.lms_id:
        return (f"no student with LMS id {entry.lms_id!r} (recorded for {entry.student!r}) "
                "in this batch")
    return f"no student {entry.student!r} in this batch"


def _several(entry: Override, owners: list[SubmissionResult]) -> str:
    names = ", ".join(repr(result.student) for result in owners)
    return (f"LMS id {entry.lms_id!r} (recorded for {entry.student!r}) is on {len(owners)} "
            f"students ({names}), so it is applied to none")


def apply_all(results: Iterable[SubmissionResult], path: Path) -> list[str]:
    """Apply ``path``'s overrides to every result; what could not be applied, one message
    per entry."""
    results = list(results)
    entries, problems = load(path)
    kept, unusable = usable(entries, results)
    for result in results:
        apply(result, kept)
    return problems + unusable


def stale(results: Iterable[SubmissionResult]) -> list[tuple[SubmissionResult, OverrideRecord]]:
    """Each override in force whose student's code changed since it was made."""
    return [(result, record) for result in results for record in result.overrides
            if record.stale and not record.superseded]
