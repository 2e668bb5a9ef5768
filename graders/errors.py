"""The two kinds of failure the harness keeps apart.

A :class:`StudentFault` is the submission's doing (an exception, a hang, a crash, output that
is not plain data): it costs marks and is explained in the student's report. A
:class:`GraderError` is the harness's or the configuration's doing: it never costs a student
marks; the run reports it and exits non-zero.
"""

from __future__ import annotations

from typing import Any


class GraderError(Exception):
    """A problem in the harness, a pack or the machine: never the student's fault."""


class DeclarationError(GraderError):
    """An ``assignment.toml`` that does not validate; the message names file, key and value."""


class StudentFault(AssertionError):
    """Base of failures caused by the submission. ``kind`` is a short machine-readable tag."""

    kind = "student-error"

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class StudentError(StudentFault):
    """The student's code raised an exception."""

    kind = "exception"


class StudentTimeout(StudentFault):
    """The student's code ran past its time limit and was killed."""

    kind = "timeout"


class StudentCrash(StudentFault):
    """The process running the student's code ended (exit, signal, memory limit)."""

    kind = "crash"
