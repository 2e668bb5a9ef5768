"""Give marks and feedback back to the LMS: ``grade export ID --format NAME``.

Each format is one module registering an :class:`LmsFormat` subclass (``@register``). It reads
the results ``grade`` wrote (``reports/<id>/results.json``, the final marks) and writes the
LMS's own grade-import CSV plus a zip of per-student feedback pages in the layout that LMS
uploads in bulk. The pages are the student-safe feedback (:mod:`graders.feedback`); every text
cell is spreadsheet-safe (:func:`graders.report.csv_cell`).

Nothing is lost on the way back: a row carries the id the LMS matches it by (from the export
the submissions came in, or the LMS's own gradebook given as ``--roster``); the mark goes into
the gradebook's existing column (:mod:`graders.export.columns`); and an export that would write
only zeros, leave out a graded student, mix one LMS's ids with another's or write one id twice
is refused (:mod:`graders.export.guard`) unless forced.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import ClassVar

from graders.errors import GraderError
from graders.feedback import FeedbackWriter
from graders.pack import Pack
from graders.registry import Registry
from graders.report import csv_cell
from graders.results import SubmissionResult, write_atomic

NUMBER = re.compile(r"-?\d+(\.\d+)?")


@dataclass
class ExportOptions:
    column: str | None = None  # the LMS's name (or id) of the grade column / item
    force: bool = False  # write even what the guard refuses (each problem stays a note)
    notes: list[str] = field(default_factory=list)  # what could not be exported, and why
    columns: list[str] = field(default_factory=list)  # the roster's grade columns
    chosen: str = ""  # the grade column the export writes into


@dataclass
class Written:
    grades: Path
    feedback: Path
    notes: list[str]


class LmsFormat:
    """One LMS's import files."""

    name: ClassVar[str]
    title: ClassVar[str]
    # The layouts and roster kinds whose ids this LMS matches rows by.
    spaces: ClassVar[frozenset[str]] = frozenset()
    mark_cells: ClassVar[slice] = slice(0, 0)  # where a row's marks are

    def key(self, result: SubmissionResult) -> str | None:
        """The id this LMS matches ``result``'s row by, when ``result`` carries one: the
        roster's (its own gradebook) first, else the export's the submission came in."""
        roster_id = lms_fact(result, "roster_id")
        if roster_id and lms_fact(result, "roster") in self.spaces:
            return roster_id
        if lms_fact(result, "layout") in self.spaces and result.lms_id:
            return result.lms_id
        return None

    def column(self, pack: Pack, options: ExportOptions) -> str:
        """The gradebook column the marks go into (GraderError when it cannot be told)."""
        return ""

    def header(self, pack: Pack, options: ExportOptions) -> list[list[str]]:
        """The header row(s) of the grade CSV."""
        raise NotImplementedError

    def row(self, result: SubmissionResult, pack: Pack, options: ExportOptions) -> list[str] | None:
        """One result's row (None: it cannot be imported; say why in ``options.notes``)."""
        raise NotImplementedError

    def feedback_name(self, result: SubmissionResult) -> str:
        """Where the student's feedback page goes in the bulk-upload zip."""
        raise NotImplementedError


_FORMATS: Registry[type[LmsFormat]] = Registry(__name__, "format", lambda fmt: fmt.name)
#: Class decorator adding an export format (an :class:`LmsFormat` subclass) under its ``name``.
register = _FORMATS.register


@cache
def formats() -> dict[str, LmsFormat]:
    """Every export format by name."""
    return {name: fmt() for name, fmt in _FORMATS.all().items()}


def load_results(report_dir: Path) -> list[SubmissionResult]:
    """The results ``grade`` wrote in ``report_dir`` (its ``results.json``)."""
    path = report_dir / "results.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise GraderError(f"{path}: cannot read the results ({exc}); run `grade` first") from None
    return [SubmissionResult.from_dict(item) for item in data]


def safe(cell: object) -> str:
    """A cell a spreadsheet shows as written: numbers as they are, text OWASP-quoted."""
    text = str(cell)
    return text if text == "-" or NUMBER.fullmatch(text) else csv_cell(text)


def csv_text(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        writer.writerow([safe(cell) for cell in row])
    return buffer.getvalue()


def part(name: str) -> str:
    """``name`` made one safe path part inside a zip, injectively: a separator, a control
    character, a leading dot, white space at either end and ``~`` itself become ``~hh``, so
    ``bob`` and ``bob `` (or ``carol_x`` and ``carol:x``) stay two members."""
    last = len(name) - 1
    return "".join(
        f"~{ord(c):02x}" if (c in '/\\:~' or ord(c) < 32 or ord(c) == 127
                             or (c == "." and i == 0) or (c.isspace() and i in (0, last)))
        else c
        for i, c in enumerate(name)
    ) or "student"


def points(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def summary(result: SubmissionResult) -> str:
    """A one-paragraph feedback comment: total, criteria, deductions."""
    if result.status == "missing":
        return "No submission."
    parts = [f"{points(result.total)} / {points(result.max_total)}."]
    parts += [f"{m.title}: {points(m.earned)}/{points(m.points)}." for m in result.criteria]
    parts += [f"Deduction: {d.reason} (-{points(d.points)})." for d in result.deductions]
    if result.status != "graded":
        parts.append("Grading was incomplete; your instructor will check this mark.")
    return " ".join(parts)


def export(pack: Pack, report_dir: Path, out_dir: Path, fmt: str,
           options: ExportOptions | None = None) -> Written:
    """Write ``<fmt>-grades.csv`` and ``<fmt>-feedback.zip`` into ``out_dir``.

    GraderError when the report holds nothing of ``pack`` or the column cannot be told;
    :class:`~graders.export.guard.Refused` when the export would lose marks (``force``
    writes it anyway, each problem a note).
    """
    from graders.export.guard import Refused, problems

    if fmt not in formats():
        raise GraderError(f"no export format {fmt!r}; known: {', '.join(formats())}")
    chosen, options = formats()[fmt], options or ExportOptions()
    everything = load_results(report_dir)
    results = [r for r in everything if r.assignment == pack.id]
    if not results:
        held = sorted({r.assignment for r in everything})
        raise GraderError(f"{report_dir / 'results.json'} holds no result of {pack.id!r}"
                          + (f" (it holds {', '.join(held)})" if held else "")
                          + ": nothing to export")
    options.columns = options.columns or roster_columns(report_dir)
    options.chosen = chosen.column(pack, options)
    rows = chosen.header(pack, options)
    body = []
    for result in results:
        row = chosen.row(result, pack, options)
        if row is not None:
            body.append(row)
    found = problems(chosen, results, body)
    if found and not options.force:
        raise Refused(fmt, found)
    options.notes += [f"written anyway (--force): {problem}" for problem in found]
    grades = out_dir / f"{fmt}-grades.csv"
    write_atomic(grades, csv_text(rows + body))
    feedback = out_dir / f"{fmt}-feedback.zip"
    _write_feedback(chosen, pack, results, feedback)
    return Written(grades, feedback, options.notes)


def roster_columns(report_dir: Path) -> list[str]:
    """The grade columns of the roster ``grade`` was given (its ``intake.json``)."""
    try:
        data = json.loads((report_dir / "intake.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    columns = data.get("roster_columns") if isinstance(data, dict) else None
    return [str(c) for c in columns] if isinstance(columns, list) else []


def _write_feedback(chosen: LmsFormat, pack: Pack, results: list[SubmissionResult],
                    target: Path) -> None:
    writer = FeedbackWriter(target.parent, pack)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for result in results:
            if result.status != "missing":
                archive.writestr(chosen.feedback_name(result), writer.render(result))
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(f".{target.name}.tmp")
    temp.write_bytes(buffer.getvalue())
    temp.replace(target)


def lms_fact(result: SubmissionResult, key: str) -> str:
    """A fact the intake or roster recorded on ``result`` (``""`` when unknown)."""
    return str(result.lms.get(key, ""))


def person(result: SubmissionResult) -> tuple[str, str, str]:
    """``(lms id, display name, e-mail)`` of ``result``."""
    lms_id = result.lms_id or result.student
    name = result.display_name or result.student
    return lms_id, name, result.email
