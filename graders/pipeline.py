"""A grading request, top to bottom: the stages of :mod:`graders.stages` for a whole batch.

:func:`run_pipeline` is the one call the batch makes. It reads down and never back up:

0. **admit**: refuse to start when marks would be wrong for everyone (a tool not ready, no
   sandbox without ``--isolation rlimits``), then let the route refuse (:meth:`Route.check`);
1. **intake**: the export's submissions, roster names and times settled; then the route is
   opened for that many (:meth:`Route.opened`: a pool's workers start importing the engine
   while the parent goes on, and are waited for only after the index is written);
2. **prepare**: each submission once, here in the parent; reuse every stored result whose
   :func:`~graders.outcomes.grading_key` is unchanged;
3. to 5. **rules, session, mark**: the rest handed to the route in shares
   (:meth:`Route.grade`), each share graded by :func:`~graders.stages.grade_share` wherever
   the route runs it;
6. **write**: each result written as it comes back (on this machine's routes the worker that
   graded a share has written its reports: the parent logs them), then the roster's missing
   rows, the index and ``intake.json``.

The route is chosen by the batch (:mod:`graders.batch`) and handed down: this module never
imports a route, so the pool and the cluster live above it and run the stages below it. A
student is finished only once their result is written; a share that never comes back leaves
its students as grader errors, never missing and never zero.
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import tempfile
import traceback
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Protocol
from zoneinfo import ZoneInfo

from graders.cluster_access import ClusterAccess
from graders.consensus import as_option, class_consensus
from graders.errors import GraderError
from graders.feedback import FeedbackWriter
from graders.gradelog import SafeRecords, batch_log
from graders.intake.base import Found
from graders.intake.people import Settled, missing_id
from graders.intake.plain import single
from graders.intake.roster import Person, Roster
from graders.intake.teams import Teams
from graders.outcomes import (
    BatchOutcome,
    GradeOptions,
    Progress,
    ShareResults,
    broken,
    digest_pack,
    grading_key,
    identify,
    missing,
    remark,
    team_copy,
)
from graders.pack import Pack
from graders.report import ReportWriter, similar
from graders.results import SubmissionResult, write_atomic
from graders.sandbox import Isolation
from graders.sandbox.isolation import detect_isolation
from graders.stages import Writing, WrittenShare, intake, logged, prepare_all, write
from graders.submissions import Submission
from graders.tools import unready_tools

log = logging.getLogger(__name__)
log.addFilter(SafeRecords())
SETUP_COMMAND = "sudo apt-get install -y bubblewrap"
#: A share of submissions with its results, as a route hands them back.
Returned = tuple[list[Submission], ShareResults | WrittenShare]


@dataclass
class BatchRequest:
    """What to grade and how (``jobs`` and ``cluster`` choose the route: the batch reads
    them, the pipeline the rest)."""

    pack: Pack
    sources: Sequence[Path | Found]  # folders/zips/files, or what an intake layout found
    out_dir: Path | None = None
    public_only: bool = False
    fresh: bool = False
    due: datetime | None = None
    isolation: Isolation | None = None  # RLIMITS here is the only way to grade without bwrap
    progress: Progress | None = None
    jobs: int = 1
    cluster: ClusterAccess | str | None = None  # `local:N`, or a Dask scheduler: grade there
    write_index: bool = True
    roster: Roster | None = None  # --roster: names, e-mails; its people with no submission
    times: Mapping[str, datetime] | None = None  # --times (wins over the export's times)
    extensions: Mapping[str, datetime] | None = None  # --extensions: students' own due dates
    teams: Teams | None = None  # --teams: members who get their team's submission's mark
    zone: tzinfo | None = None  # for the export's zone-less times (default: the due date's)
    layout: str = "plain"
    intake_notes: list[str] = field(default_factory=list)  # export-level: what was not placed
    verbose: bool = False  # grade.log at DEBUG, not INFO


class Route(Protocol):
    """Where the shares are graded: this process or a pool (:class:`graders.parallel.LocalRoute`),
    or a Dask cluster (:class:`graders.cluster.ClusterRoute`)."""

    #: Whether the route's workers share this file system (and so write their reports).
    shares_files: bool

    def check(self, isolation: Isolation | None) -> None:
        """Refuse (GraderError) what this route must not grade, before anything is graded."""

    def grade(
        self, pack_id: str, pending: list[Submission], options: GradeOptions,
        writing: Writing | None = None,
    ) -> Generator[Returned, None, None]:
        """Each share of ``pending`` with its results (or the exception that lost them), as
        they complete; closing the iterator stops the route's workers."""

    def opened(self, pack_id: str, options: GradeOptions,
               count: int) -> contextlib.AbstractContextManager[Route]:
        """The route ready for a batch of ``count`` submissions, its workers starting while
        the parent prepares them; on leaving, none of its workers is left."""


def run_pipeline(request: BatchRequest, route: Route) -> BatchOutcome:
    """Grade ``request.sources`` on ``route``; never raises for one student's problem.

    Refuses to start (GraderError) when a tool the pack needs is not ready, when bubblewrap
    is not usable and the resource-limits fallback was not asked for (``isolation=RLIMITS``),
    or when the route refuses: marks made that way would be wrong, or made without the
    sandbox, for everyone. The student pre-check (``public_only``) goes on in the first two
    cases and says so. With an ``out_dir``, every stage is logged to its ``grade.log``
    (:mod:`graders.gradelog`).
    """
    isolation = _admitted(request)
    route.check(isolation)  # before any intake: a refused route grades nobody
    with batch_log(request.out_dir, verbose=request.verbose):
        return _graded(request, route, isolation)


def _admitted(request: BatchRequest) -> Isolation:
    """The isolation to grade with, or GraderError when grading must not start."""
    unready = unready_tools(request.pack)
    if unready and not request.public_only:
        raise GraderError("; ".join(unready))
    isolation = request.isolation or detect_isolation()
    if isolation is Isolation.RLIMITS and request.isolation is None and not request.public_only:
        raise GraderError(
            "bubblewrap is not usable on this machine: refusing to grade with resource limits "
            f"only. Install it with `{SETUP_COMMAND}`, or pass `--isolation rlimits` to grade "
            "without the sandbox (student code can then read what its uid can read)."
        )
    return isolation


def _graded(request: BatchRequest, route: Route, isolation: Isolation) -> BatchOutcome:
    """The stages in order: intake, then (in :func:`_grade`) prepare, reuse or grade a share
    on the route (rules, session, mark), write; then the roster's missing rows and the index."""
    pack = request.pack
    zone = request.zone or due_zone(pack, request.due)
    options = GradeOptions(
        public_only=request.public_only,
        due=request.due,
        isolation=isolation,
        pack_digest=digest_pack(pack, hidden=not request.public_only),
        root=pack.root,
    )
    settled = intake(pack, [_found(s) for s in request.sources], roster=request.roster,
                     times=request.times, zone=zone, extensions=request.extensions,
                     teams=request.teams)
    with route.opened(pack.id, options, len(settled.found)) as ready:
        return _graded_on(request, ready, options, settled)


def _graded_on(request: BatchRequest, route: Route, options: GradeOptions,
               settled: Settled) -> BatchOutcome:
    """The stages after intake, on the opened route."""
    pack, isolation = request.pack, options.isolation
    assert isolation is not None
    writer = ReportWriter(request.out_dir, pack) if request.out_dir else None
    feedback = (FeedbackWriter(request.out_dir / "feedback", pack, request.due)
                if request.out_dir and not request.public_only else None)
    work_root = Path(tempfile.mkdtemp(prefix="grade-work-"))
    work_root.chmod(0o700)  # the sandboxes get scratch copies, never this folder
    compared = len(settled.found) if writer and request.write_index else 0
    with contextlib.closing(similar.Fingerprinting(pack, compared)) as prints:
        try:
            outcome = _grade(request, route, options, writer, work_root, settled.found,
                             feedback, prints)
        finally:
            shutil.rmtree(work_root, ignore_errors=True)
        kind = request.roster.kind if request.roster else ""
        for person in settled.missing:
            row = missing(pack, person, options, _unique_among(person, outcome), kind)
            if writer:
                writer.write_student(row)
            outcome.results.append(row)
        for person, team in settled.team:
            row = team_copy(_of_team(outcome, team), person, _unique_among(person, outcome),
                            kind, team)
            log.info("team: %s gets the mark of %s (team %s)", row.student,
                     row.lms["graded_with"], team)
            outcome.grader_errors.extend(write(row, writer, feedback))
            outcome.results.append(row)
        outcome.results.sort(key=lambda r: r.student.lower())
        if writer and request.write_index:
            writer.write_index(outcome.results, isolation, shared=outcome.shared,
                               fingerprints=prints)
            if request.out_dir:
                _write_intake(request, settled.missing, outcome)
    return outcome


def _found(source: Path | Found) -> Found:
    return source if isinstance(source, Found) else single(source)


def due_zone(pack: Pack, due: datetime | None) -> tzinfo | None:
    """The zone of zone-less export times: the course's (``[course] timezone``), else the
    due date's (``due``, else the declaration's)."""
    course = pack.declaration.course.timezone
    if course:
        return ZoneInfo(course)
    due = due or pack.declaration.late.due
    return due.tzinfo if due else None


def _grade(
    request: BatchRequest, route: Route, options: GradeOptions, writer: ReportWriter | None,
    work_root: Path, found: list[Found], feedback: FeedbackWriter | None,
    prints: similar.Fingerprinting,
) -> BatchOutcome:
    """Prepare each submission once, reuse what is unchanged, grade the rest on the route,
    and write each result as it comes back (and hand it to ``prints``)."""
    assert options.isolation is not None
    outcome = BatchOutcome(results=[], isolation=options.isolation)
    prepared = prepare_all(request.pack, found, work_root)

    def emit(result: SubmissionResult, *, stored: bool = False,
             written: list[str] | None = None) -> None:
        if result.student in prepared.identities:
            identify(result, prepared.identities[result.student])
        if written is None:
            outcome.grader_errors.extend(write(result, None if stored else writer, feedback))
        else:  # its worker wrote it
            logged(result, written, written=writer is not None)
            outcome.grader_errors.extend(written)
        outcome.results.append(result)
        prints.add(result)
        if request.progress:
            request.progress(result)

    for name, why in prepared.failed.items():
        emit(broken(request.pack, name, options, why))
    outcome.shared = class_consensus(request.pack, prepared.submissions)
    options = replace(options, shared=as_option(outcome.shared))
    pending: list[Submission] = []
    for submission in prepared.submissions:
        key = grading_key(request.pack, submission, options)
        cached = writer.cached(submission.id, key) if writer and not request.fresh else None
        try:  # a stored result under this run's due date and hand-in time
            remarked = remark(request.pack, cached, submission, options) if cached else None
        except Exception:  # noqa: BLE001 - graded again: the mark stage reports the problem
            cached = remarked = None
        if cached is not None:
            outcome.reused += 1
            outcome.remarked += remarked is not None
            log.info("reuse: %s: unchanged since %s%s", submission.id, cached.graded_at,
                     "; marked again for this run's due date" if remarked else "")
            emit(remarked or cached, stored=remarked is None)
        else:
            pending.append(submission)
    writing = (Writing(writer.out_dir, feedback=not request.public_only, due=request.due,
                       identities=prepared.identities)
               if writer and route.shares_files else None)
    with contextlib.closing(_hand_out(request, pending, route, options, writing)) as shares:
        for share, results in shares:
            problems = results.problems if isinstance(results, WrittenShare) else {}
            if isinstance(results, WrittenShare):
                results = results.results
            returned = {r.student: r for r in results} if isinstance(results, list) else {}
            for submission in share:
                result = returned.get(submission.id)
                if result is None:
                    why = f"its grading worker ended without a result ({_describe(results)})"
                    emit(broken(request.pack, submission.id, options, why))
                else:
                    emit(result, written=problems.get(submission.id))
    return outcome


def _hand_out(
    request: BatchRequest, pending: list[Submission], route: Route, options: GradeOptions,
    writing: Writing | None,
) -> Generator[Returned, None, None]:
    """The submissions to grade, handed to the route (written there when ``writing`` says
    where): the one place every graded submission passes."""
    return route.grade(request.pack.id, pending, options, writing)


def _of_team(outcome: BatchOutcome, team: str) -> SubmissionResult:
    return next(r for r in outcome.results if r.lms.get("team") == team)


def _unique_among(person: Person, outcome: BatchOutcome) -> str:
    taken = {r.student.lower() for r in outcome.results}
    name = missing_id(person)
    candidates = [name] + [f"{name} ({n})" for n in range(2, 10_000)]
    return next(c for c in candidates if c.lower() not in taken)


def _write_intake(request: BatchRequest, absent: list[Person], outcome: BatchOutcome) -> None:
    """``intake.json``: the layout, what could not be placed, who has no submission."""
    assert request.out_dir is not None
    summary = {
        "layout": request.layout,
        "notes": request.intake_notes,
        "roster": request.roster.kind if request.roster else None,
        "roster_columns": request.roster.columns if request.roster else [],
        "missing": [missing_id(person) for person in absent],
        "submissions": sum(r.status != "missing" and "graded_with" not in r.lms
                           for r in outcome.results),
    }
    write_atomic(request.out_dir / "intake.json", json.dumps(summary, indent=1))


def _describe(results: object) -> str:
    if isinstance(results, BaseException):
        return "".join(traceback.format_exception_only(results)).strip()[-1500:]
    return "the worker returned no result for this student"
