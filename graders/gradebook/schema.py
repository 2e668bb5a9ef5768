"""The gradebook's tables (SQLAlchemy 2 declarative): what the migrations create.

Append-only: a grading run adds a :class:`Run` with one :class:`Result` per student; an
override adds an :class:`Override`. Nothing is updated in place but an assignment's latest
title and pack digest and a student's latest display name.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    """The gradebook's metadata."""


class Assignment(Base):
    """One pack, as last graded."""

    __tablename__ = "assignment"
    id: Mapped[str] = mapped_column(String(100), primary_key=True)
    title: Mapped[str] = mapped_column(String(300), default="")
    pack_digest: Mapped[str] = mapped_column(String(64), default="")


class Student(Base):
    """A person across the term: ``key`` is the LMS id (else the id the report shows)."""

    __tablename__ = "student"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(300), unique=True)
    lms_id: Mapped[str] = mapped_column(String(300), default="")
    display_name: Mapped[str] = mapped_column(String(300), default="")


class Run(Base):
    """One grading run of one assignment: what produced its marks."""

    __tablename__ = "run"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    assignment_id: Mapped[str] = mapped_column(ForeignKey("assignment.id"), index=True)
    at: Mapped[str] = mapped_column(String(40))
    harness_digest: Mapped[str] = mapped_column(String(64))
    pack_digest: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text, default="{}")  # JSON
    due: Mapped[str] = mapped_column(String(40), default="")
    times_digest: Mapped[str] = mapped_column(String(64), default="")
    report_dir: Mapped[str] = mapped_column(Text, default="")
    results: Mapped[list[Result]] = relationship(back_populates="run", order_by="Result.id")


class Blob(Base):
    """A result exactly as the engine wrote it (its JSON), stored once however many runs
    share it: enough to render the student's pages again."""

    __tablename__ = "blob"
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    body: Mapped[str] = mapped_column(Text)


class Result(Base):
    """One student's marks in one run."""

    __tablename__ = "result"
    __table_args__ = (UniqueConstraint("run_id", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id"), index=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("student.id"), index=True)
    name: Mapped[str] = mapped_column(String(300))  # the id the assignment's report uses
    status: Mapped[str] = mapped_column(String(30))
    total: Mapped[float] = mapped_column(Float)
    automatic_total: Mapped[float] = mapped_column(Float)
    max_total: Mapped[float] = mapped_column(Float)
    late_penalty: Mapped[float] = mapped_column(Float, default=0.0)
    code_digest: Mapped[str] = mapped_column(String(64))
    submitted_at: Mapped[str] = mapped_column(String(40), default="")
    own_due: Mapped[str] = mapped_column(String(40), default="")  # --extensions ("": none)
    overrides: Mapped[str] = mapped_column(Text, default="")  # those in force, one per line
    blob_digest: Mapped[str] = mapped_column(ForeignKey("blob.digest"))
    run: Mapped[Run] = relationship(back_populates="results")
    student: Mapped[Student] = relationship()
    blob: Mapped[Blob] = relationship()
    marks: Mapped[list[Mark]] = relationship(order_by="Mark.id")


class Mark(Base):
    """One criterion of one result (``automatic``: the grader's, before an override)."""

    __tablename__ = "mark"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("result.id"), index=True)
    criterion: Mapped[str] = mapped_column(String(100))
    points: Mapped[float] = mapped_column(Float)
    earned: Mapped[float] = mapped_column(Float)
    automatic: Mapped[float] = mapped_column(Float)


class Outcome(Base):
    """One test case of one result: its outcome and the causes it showed (JSON)."""

    __tablename__ = "outcome"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("result.id"), index=True)
    test: Mapped[str] = mapped_column(Text)
    case: Mapped[str] = mapped_column(Text, default="")
    outcome: Mapped[str] = mapped_column(String(30))
    causes: Mapped[str] = mapped_column(Text, default="{}")


class Override(Base):
    """A TA's mark: who, when, why, from -> to, on which code (``code``: its digest)."""

    __tablename__ = "override"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    assignment_id: Mapped[str] = mapped_column(ForeignKey("assignment.id"), index=True)
    student: Mapped[str] = mapped_column(String(300))  # the id the assignment's report uses
    criterion: Mapped[str] = mapped_column(String(100))
    from_points: Mapped[float | None] = mapped_column(Float, nullable=True)
    points: Mapped[float] = mapped_column(Float)
    comment: Mapped[str] = mapped_column(Text)
    by: Mapped[str] = mapped_column(String(300))
    at: Mapped[str] = mapped_column(String(40))
    code: Mapped[str] = mapped_column(String(64), default="")
    lms_id: Mapped[str] = mapped_column(String(300), default="")  # the entry follows this id
