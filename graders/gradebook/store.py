"""Open a gradebook (SQLite file or PostgreSQL server), migrate it, and read and write it.

The schema is Alembic's: every open brings the database to the latest migration shipped in
``graders/gradebook/migrations/`` (on PostgreSQL under an advisory lock, so two TAs opening a
new gradebook at once do not both create it).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from graders.gradebook import schema
from graders.overrides import Override

ENV = "GRADERS_GRADEBOOK"
FILE_NAME = "gradebook.sqlite"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_LOCK = 3131  # the advisory lock id migrations take on PostgreSQL


def url_for(given: str | None, reports: Path) -> str:
    """The database URL: ``given`` (``--gradebook``), else ``$GRADERS_GRADEBOOK``, else the
    SQLite file ``reports/gradebook.sqlite``. A plain path names an SQLite file;
    ``postgresql://`` is driven by psycopg 3."""
    url = given or os.environ.get(ENV) or str(reports / FILE_NAME)
    if "://" not in url:
        return f"sqlite:///{Path(url).resolve()}"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def shown(url: str) -> str:
    """``url`` without its password, to print."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


@dataclass(frozen=True)
class RunFacts:
    """What a run was made of, recorded beside its marks."""

    at: str
    harness_digest: str
    pack_digest: str
    options: dict[str, Any]
    due: str
    times_digest: str
    report_dir: str


class Gradebook:
    """One gradebook: sessions on its database, and the few writes that need care."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _engine(url)
        migrate(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session whose work is committed at the end (rolled back on an error)."""
        with self._sessions() as session, session.begin():
            yield session

    def close(self) -> None:
        """Release the database's connections."""
        self.engine.dispose()

    # -- overrides --------------------------------------------------------------------------

    def add_override(self, assignment: str, entry: Override, from_points: float | None) -> None:
        """Record ``entry`` (an insert: two TAs adding overrides at once both keep theirs)."""
        with self.session() as session:
            ensure_assignment(session, assignment)
            session.add(_override_row(assignment, entry, from_points))

    def override_rows(self, assignment: str) -> list[schema.Override]:
        """The assignment's overrides as recorded (with the mark each replaced), oldest
        first."""
        with self.session() as session:
            return list(session.scalars(select(schema.Override)
                                        .where(schema.Override.assignment_id == assignment)
                                        .order_by(schema.Override.id)))

    def overrides(self, assignment: str) -> list[Override]:
        """The assignment's overrides, oldest first (the latest of a criterion wins)."""
        return [Override(student=r.student, criterion=r.criterion, points=r.points,
                         comment=r.comment, by=r.by, at=r.at, code=r.code, lms_id=r.lms_id)
                for r in self.override_rows(assignment)]

    def import_overrides(self, assignment: str, entries: Iterable[Override]) -> int:
        """Record the entries the gradebook does not hold yet (an ``overrides.toml`` a TA
        wrote by hand); how many were new."""
        known = set(self.overrides(assignment))
        new = [entry for entry in entries if entry not in known]
        if new:
            with self.session() as session:
                ensure_assignment(session, assignment)
                session.add_all(_override_row(assignment, e, None) for e in new)
        return len(new)

    # -- runs ---------------------------------------------------------------------------------

    def assignments(self) -> list[schema.Assignment]:
        """Every assignment with a run, by id."""
        with self.session() as session:
            return list(session.scalars(select(schema.Assignment).order_by(schema.Assignment.id)))

    def runs(self, assignment: str) -> list[schema.Run]:
        """The assignment's runs, oldest first, each with its results (marks loaded)."""
        with self.session() as session:
            runs = list(session.scalars(select(schema.Run)
                                        .where(schema.Run.assignment_id == assignment)
                                        .order_by(schema.Run.id)))
            for run in runs:
                for result in run.results:
                    _ = (result.marks, result.student)
            return runs

    def body(self, result: schema.Result) -> dict[str, Any]:
        """The result's JSON as the engine wrote it."""
        with self.session() as session:
            blob = session.get(schema.Blob, result.blob_digest)
            assert blob is not None
            data: dict[str, Any] = json.loads(blob.body)
            return data


def ensure_assignment(session: Session, assignment: str, title: str = "",
                      pack_digest: str = "") -> schema.Assignment:
    """The assignment's row, created if new (a concurrent creator's row is used instead)."""
    row = session.get(schema.Assignment, assignment)
    if row is None:
        try:
            with session.begin_nested():
                row = schema.Assignment(id=assignment, title=title, pack_digest=pack_digest)
                session.add(row)
        except IntegrityError:
            row = session.get(schema.Assignment, assignment)
    assert row is not None
    if title:
        row.title, row.pack_digest = title, pack_digest
    return row


def ensure_student(session: Session, key: str, lms_id: str, name: str) -> schema.Student:
    """The student's row by ``key``, created if new, with the latest display name."""
    row = session.scalars(select(schema.Student).where(schema.Student.key == key)).first()
    if row is None:
        try:
            with session.begin_nested():
                row = schema.Student(key=key, lms_id=lms_id, display_name=name)
                session.add(row)
        except IntegrityError:
            row = session.scalars(select(schema.Student).where(schema.Student.key == key)).one()
    if name and row.display_name != name:
        row.display_name = name
    return row


def _override_row(assignment: str, entry: Override, from_points: float | None
                  ) -> schema.Override:
    return schema.Override(assignment_id=assignment, student=entry.student,
                           criterion=entry.criterion, from_points=from_points,
                           points=entry.points, comment=entry.comment, by=entry.by, at=entry.at,
                           code=entry.code, lms_id=entry.lms_id)


def _engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        database = url.split(":///", 1)[-1]
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 60})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # The driver's own transaction handling would start a transaction only at the first
    # write: `_sqlite_begin` starts each one itself.
    connection.isolation_level = None
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    # Every transaction takes the write lock at once, so two `grade` runs sharing one file
    # (a migration, a run recorded) wait for each other instead of failing midway.
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def migrate(engine: Engine) -> None:
    """Bring the database to the latest migration (nothing to do when it is there)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _LOCK})
        if MigrationContext.configure(connection).get_current_revision() == head:
            return
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
