"""What crosses a Dask cluster: JSON text both ways, each side validated against the models.

The parent sends a share as its collected submissions (ids, files, intake problems, times;
never a path the worker would read) and the grading options, each as one JSON string. The
worker answers one JSON string: ``{"results": [...]}`` or ``{"error": "..."}``. The parent
validates the answer with pydantic against :class:`~graders.results.SubmissionResult` (types,
status values, no unknown keys at the top) and takes it only when it holds exactly one result
per student of the share, for the share's assignment: a worker cannot add, drop or rename a
student. Nothing here is a pickle, and nothing here runs code it received.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, TypeAdapter

from graders.errors import GraderError
from graders.outcomes import GradeOptions
from graders.results import SubmissionResult
from graders.submissions import Submission

MAX_ANSWER_CHARS = 256 * 1024 * 1024  # ten students' pages and files, with room to spare


class Answer(BaseModel):
    """A worker's answer to one share."""

    model_config = ConfigDict(extra="forbid")

    results: list[SubmissionResult] | None = None
    error: str | None = None


_SHARE: TypeAdapter[list[Submission]] = TypeAdapter(list[Submission])
_OPTIONS: TypeAdapter[GradeOptions] = TypeAdapter(GradeOptions)


def share_json(share: list[Submission]) -> str:
    """The share as JSON text (raises on what JSON cannot carry: the share's rows say so)."""
    return _SHARE.dump_json(share).decode("utf-8")


def share_from_json(text: str) -> list[Submission]:
    """On a worker: the share the parent sent."""
    return _SHARE.validate_json(text)


def options_json(options: GradeOptions) -> str:
    """The grading options as JSON text."""
    return _OPTIONS.dump_json(options).decode("utf-8")


def options_from_json(text: str) -> GradeOptions:
    """On a worker: the grading options the parent sent."""
    return _OPTIONS.validate_json(text)


def results_answer(results: list[SubmissionResult]) -> str:
    """On a worker: the share's results as the answer's JSON text."""
    return Answer(results=results).model_dump_json()


def error_answer(why: str) -> str:
    """On a worker: the reason the share could not be graded, as the answer's JSON text."""
    return Answer(error=why).model_dump_json()


def results_from_answer(
    answer: object, share: list[Submission], pack_id: str
) -> list[SubmissionResult]:
    """The results in a worker's ``answer`` for ``share`` of ``pack_id``; raises (ValueError,
    GraderError) for anything but valid JSON of the result model naming exactly the share's
    students."""
    if not isinstance(answer, str):
        raise ValueError(f"expected JSON text, got {type(answer).__name__}")
    if len(answer) > MAX_ANSWER_CHARS:
        raise ValueError(f"the answer is {len(answer):,} characters, over {MAX_ANSWER_CHARS:,}")
    parsed = Answer.model_validate_json(answer)
    if parsed.error is not None:
        raise GraderError(parsed.error)
    if parsed.results is None:
        raise ValueError("the answer holds neither results nor an error")
    wanted = sorted(submission.id for submission in share)
    named = sorted(result.student for result in parsed.results)
    if named != wanted:
        raise ValueError(f"the answer names {named[:20]}, not the share's students {wanted[:20]}")
    if any(result.assignment != pack_id for result in parsed.results):
        raise ValueError(f"the answer holds results of another assignment than {pack_id}")
    return parsed.results
