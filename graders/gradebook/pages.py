"""The gradebook's pages: ``reports/index.html`` (the term), each student's history
(``reports/history/<id>/<slug>.html``), and each assignment's own pages rebuilt from the
gradebook through the report code (``reports/<id>/``)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from graders import overrides
from graders.gradebook import sync
from graders.gradebook.changes import Change, changed_line, last_changes
from graders.gradebook.history import History, history, was
from graders.gradebook.schema import Result, Run
from graders.gradebook.store import Gradebook
from graders.results import SubmissionResult, write_atomic
from graders.sandbox import Isolation
from graders.submissions import slugify

CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
       "form-action 'none'")
TERM_PAGE = "index.html"
HISTORY_DIR = "history"


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("graders.gradebook", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.globals["csp"] = CSP
    env.filters["slug"] = slugify
    return env


@dataclass
class Cell:
    """One student's mark in one assignment."""

    total: float
    max_total: float
    late: float
    overrides: int
    stale: bool
    status: str
    page: str  # relative to reports/
    history: str
    change: Change | None


@dataclass
class Column:
    """One assignment of the term."""

    id: str
    title: str
    runs: int
    at: str
    pack: str
    changes: list[Change] | None

    @property
    def changed(self) -> str:
        """"marks changed since the last run: N students" ("" after a first run)."""
        return "" if self.changes is None else changed_line(self.changes)


@dataclass
class Row:
    """One student of the term."""

    key: str
    name: str
    cells: dict[str, Cell] = field(default_factory=dict)


def term_page_in(reports: Path) -> Path:
    """Where the term page goes in ``reports``: ``index.html``, but ``term.html`` in a folder
    that is one assignment's report folder (a run with ``--out`` keeps its gradebook there),
    whose ``index.html`` is that class's page."""
    own = (reports / "marks.csv").is_file() and (reports / "results.json").is_file()
    return reports / ("term.html" if own else TERM_PAGE)


def write_term(book: Gradebook, reports: Path) -> Path:
    """Write the term page and every history page; the term page's path."""
    env = _environment()
    columns: list[Column] = []
    rows: dict[str, Row] = {}
    for assignment in book.assignments():
        runs = book.runs(assignment.id)
        if not runs:
            continue
        changes = last_changes(runs)
        columns.append(Column(assignment.id, assignment.title, len(runs), runs[-1].at,
                              runs[-1].pack_digest, changes))
        moved = {change.name: change for change in changes or []}
        for result, body in _latest(book, runs[-1]):
            row = rows.setdefault(result.student.key,
                                  Row(result.student.key, result.student.display_name))
            row.cells[assignment.id] = _cell(assignment.id, result.name, body,
                                             moved.get(result.name))
        _write_histories(env, book, reports, assignment.id, runs)
    page = term_page_in(reports)
    html = env.get_template("term.html.j2").render(
        columns=columns, rows=sorted(rows.values(), key=lambda r: (r.name.lower(), r.key)))
    write_atomic(page, html)
    return page


def _latest(book: Gradebook, run: Run) -> Iterable[tuple[Result, SubmissionResult]]:
    """Each result of ``run`` with the gradebook's overrides as they are now (one made
    since the run counts)."""
    entries = book.overrides(run.assignment_id)
    for result in run.results:
        body = SubmissionResult.from_dict(book.body(result))
        overrides.apply(body, [e for e in entries
                               if e.student == body.student and overrides.check(e, body) is None])
        yield result, body


def final_results(book: Gradebook, assignment: str) -> list[SubmissionResult]:
    """The assignment's results from its latest run, with today's overrides."""
    runs = book.runs(assignment)
    return [body for _, body in _latest(book, runs[-1])] if runs else []


def _cell(assignment: str, name: str, body: SubmissionResult, change: Change | None) -> Cell:
    from graders.gradebook.record import late_penalty

    in_force = [o for o in body.overrides if not o.superseded]
    slug = slugify(name)
    return Cell(total=body.total, max_total=body.max_total, late=late_penalty(body),
                overrides=len(in_force), stale=any(o.stale for o in in_force),
                status=body.status, page=f"{assignment}/students/{slug}.html",
                history=f"{HISTORY_DIR}/{assignment}/{slug}.html", change=change)


def _write_histories(env: Environment, book: Gradebook, reports: Path, assignment: str,
                     runs: list[Run]) -> None:
    entries = book.override_rows(assignment)
    names = sorted({result.name for run in runs for result in run.results})
    for name in names:
        write_history(env, reports, history(assignment, name, runs, entries))


def write_history(env: Environment | None, reports: Path, found: History) -> Path:
    """Write one student's history page; its path."""
    env = env or _environment()
    page = reports / HISTORY_DIR / found.assignment / f"{slugify(found.name)}.html"
    student_page = f"../../{found.assignment}/students/{slugify(found.name)}.html"
    html = env.get_template("history.html.j2").render(h=found, was=was,
                                                      student_page=student_page)
    write_atomic(page, html)
    return page


def history_of(book: Gradebook, assignment: str, name: str) -> History:
    """The history of ``name`` in ``assignment``."""
    return history(assignment, name, book.runs(assignment), book.override_rows(assignment))


def rebuild(book: Gradebook, reports: Path, *, everything: bool = False,
            also: Collection[str] = ()) -> list[str]:
    """Write again, from the gradebook, each assignment's pages whose folder lost its index
    (and those of ``also``; every assignment's with ``everything``); the ids rebuilt. The
    overrides file is written from the gradebook first, so the pages show the overrides it
    holds."""
    from graders.feedback import FeedbackWriter
    from graders.pack import get_pack
    from graders.report import ReportWriter

    done = []
    for assignment in book.assignments():
        folder = reports / assignment.id
        runs = book.runs(assignment.id)
        wanted = everything or assignment.id in also or not (folder / "index.html").is_file()
        if not runs or not wanted:
            continue
        pack = get_pack(assignment.id)
        results = [body for _, body in _latest(book, runs[-1])]
        sync.sync_overrides(book, assignment.id, folder)
        writer = ReportWriter(folder, pack)
        feedback = FeedbackWriter(folder / "feedback", pack, _due(runs[-1]))
        for result in results:
            writer.write_student(result)
            if result.mode == "full":
                feedback.write(result)
        writer.write_index(results, _isolation(results))
        intake = json.loads(runs[-1].options).get("intake")
        if isinstance(intake, str):
            write_atomic(folder / "intake.json", intake)
        done.append(assignment.id)
    return done


def _isolation(results: list[SubmissionResult]) -> Isolation:
    """The isolation most of the results were graded under (the index names it)."""
    levels = Counter(r.isolation for r in results
                     if r.isolation in {level.value for level in Isolation})
    return Isolation(levels.most_common(1)[0][0]) if levels else Isolation.RLIMITS


def _due(run: Run) -> datetime | None:
    return datetime.fromisoformat(run.due) if run.due else None
