"""The gradebook: every grading run of the term kept, through SQLAlchemy.

An SQLite file by default (``reports/gradebook.sqlite``; with ``--out DIR``, ``DIR``'s), or a
shared PostgreSQL server named by ``--gradebook URL`` or ``$GRADERS_GRADEBOOK``. Each ``grade``
run adds a run with every student's result (the result JSON whole, so every page can be
rendered again); a regrade says which students' marks moved since the last run and why.
TA overrides live here; ``overrides.toml`` is their export and import (:mod:`.sync`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from graders.errors import GraderError
from graders.gradebook.changes import Change, changed_line, last_changes, words
from graders.gradebook.record import facts, record_run
from graders.gradebook.store import Gradebook, shown, url_for
from graders.gradebook.sync import sync_overrides

if TYPE_CHECKING:
    from graders.batch import BatchRequest
    from graders.outcomes import BatchOutcome

__all__ = ["Gradebook", "Where", "after_run", "before_run", "open_gradebook", "reports_root"]


def reports_root(out: Path | None) -> Path:
    """Where the gradebook and the term page live: ``reports/``, or ``--out``'s folder (a
    run told where to write writes nothing else)."""
    if out is not None:
        return out
    from graders.pack import project_root

    return project_root() / "reports"


def open_gradebook(url: str | None, reports: Path) -> Gradebook:
    """The gradebook ``url`` names (see :func:`~graders.gradebook.store.url_for`); a
    GraderError saying why when it cannot be opened."""
    from sqlalchemy.exc import SQLAlchemyError

    resolved = url_for(url, reports)
    try:
        return Gradebook(resolved)
    except (SQLAlchemyError, OSError) as exc:
        raise GraderError(f"cannot open the gradebook {shown(resolved)}: "
                          f"{str(exc).splitlines()[0]}") from None


@dataclass(frozen=True)
class Where:
    """The gradebook a `grade` run records into, opened only when needed: a run that stops
    before grading anyone leaves no gradebook behind."""

    url: str | None
    reports: Path

    def existing(self) -> Gradebook | None:
        """The gradebook, when there is one (an SQLite file not yet made is None)."""
        resolved = url_for(self.url, self.reports)
        if resolved.startswith("sqlite:///") and not Path(resolved[len("sqlite:///"):]).exists():
            return None
        return open_gradebook(resolved, self.reports)

    def open(self) -> Gradebook:
        """The gradebook, made if new."""
        return open_gradebook(self.url, self.reports)


def term_page(where: Where) -> Path | None:
    """Write the term page (and the history pages) beside the gradebook's reports."""
    from graders.gradebook.pages import write_term

    book = where.existing()
    if book is None:
        return None
    try:
        return write_term(book, where.reports)
    finally:
        book.close()


def before_run(where: Where, request: BatchRequest) -> list[str]:
    """Bring the gradebook's overrides into the report folder before grading (and a TA's
    hand-written ones into the gradebook); the problems of the overrides file."""
    assert request.out_dir is not None
    book = where.existing()
    if book is None:
        return []
    try:
        return sync_overrides(book, request.pack.id, request.out_dir)
    finally:
        book.close()


def after_run(where: Where, request: BatchRequest, outcome: BatchOutcome
              ) -> list[Change] | None:
    """Record the run; the students whose marks moved since the last run (None: first run)."""
    due = request.due or request.pack.declaration.late.due
    options = {"fresh": request.fresh, "jobs": request.jobs, "layout": request.layout,
               "isolation": outcome.isolation.value, "public_only": request.public_only,
               "cluster": str(getattr(request.cluster, "spec", request.cluster) or ""),
               "roster": request.roster.kind if request.roster else "",
               "reused": outcome.reused, "intake": _intake(request.out_dir)}
    book = where.open()
    try:
        record_run(book, request.pack, outcome.results,
                   facts(request.pack, outcome.results, due, options,
                         str(request.out_dir or "")))
        return last_changes(book.runs(request.pack.id))
    finally:
        book.close()


def _intake(folder: Path | None) -> str | None:
    """The run's ``intake.json`` as written (layout, roster columns, who did not submit),
    kept so that a rebuilt folder has it too."""
    try:
        return (folder / "intake.json").read_text(encoding="utf-8") if folder else None
    except OSError:
        return None


def change_lines(changes: list[Change] | None, assignment: str) -> list[str]:
    """What a run says on the console about marks that moved."""
    if changes is None:
        return [words()["lines"]["first"].format(assignment=assignment)]
    return [changed_line(changes)] + [
        f"  {c.name}: {c.before:g} → {c.after:g} ({c.why})" for c in changes]


__all__ += ["change_lines", "changed_line", "shown", "sync_overrides", "term_page"]
