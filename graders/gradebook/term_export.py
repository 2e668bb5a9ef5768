"""``grade export --term --format NAME``: every assignment of the gradebook exported for the
LMS by :mod:`graders.export`, each from its latest run with today's overrides."""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from graders.errors import GraderError
from graders.export import ExportOptions, Written, export
from graders.export.guard import Refused
from graders.gradebook import Where
from graders.gradebook.pages import final_results
from graders.gradebook.store import Gradebook, shown
from graders.pack import get_pack
from graders.results import write_atomic


@dataclass
class TermExport:
    """What the term's export wrote, and what it refused (by assignment)."""

    written: dict[str, Written] = field(default_factory=dict)
    refused: dict[str, Refused] = field(default_factory=dict)


def export_term(where: Where, out: Path | None, fmt: str, force: bool) -> TermExport:
    """Write ``out/<id>/<fmt>-grades.csv`` and the feedback zip for every assignment
    (``out``: ``reports/term-<fmt>/``); the roster's columns are read from
    ``reports/<id>/intake.json`` when it is there. A GraderError when nothing is recorded."""
    book = where.open()
    try:
        done = _export(book, where.reports, out or where.reports / f"term-{fmt}", fmt, force)
    finally:
        book.close()
    if not done.written and not done.refused:
        raise GraderError(f"the gradebook {shown(book.url)} holds no run yet: nothing to export")
    return done


def _export(book: Gradebook, reports: Path, out: Path, fmt: str, force: bool) -> TermExport:
    done = TermExport()
    for assignment in book.assignments():
        results = final_results(book, assignment.id)
        if not results:
            continue
        pack = get_pack(assignment.id)
        with tempfile.TemporaryDirectory(prefix="grade-term-") as stage:
            folder = Path(stage)
            write_atomic(folder / "results.json",
                         json.dumps([json.loads(r.to_json()) for r in results]))
            intake = reports / assignment.id / "intake.json"
            if intake.is_file():
                shutil.copy(intake, folder / "intake.json")
            try:
                done.written[assignment.id] = export(pack, folder, out / assignment.id, fmt,
                                                     ExportOptions(force=force))
            except Refused as refused:
                done.refused[assignment.id] = refused
    return done
