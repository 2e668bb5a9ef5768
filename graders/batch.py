"""Grade a batch of submissions of one assignment: the engine's main job.

The parent (:func:`grade_batch`) prepares every submission once, reuses each stored result whose
:func:`grading_key` is unchanged, hands the rest out in shares to :func:`grade_share` (in this
process, or in a pool of worker processes: see :mod:`graders.parallel`), and writes every report
itself as the results come back. A student is finished only once their result is written; a
share that never comes back leaves its students as grader errors, never missing and never zero.

:func:`grade_share` grades a few submissions in ONE pytest session. Each stage for each student
(preparing, rule checks, the tests, marking) runs inside a guard that always yields a result for
that student: the student's own pathological input is the student's failure, anything else a
grader error for that student alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import tempfile
import traceback
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, tzinfo
from pathlib import Path

from graders import PACKAGE_DIR
from graders.cluster import ClusterAccess, check_access
from graders.consensus import SharedLines, as_option, class_consensus
from graders.errors import GraderError
from graders.feedback import FeedbackWriter
from graders.intake.base import Found
from graders.intake.people import missing_id, settle
from graders.intake.plain import single
from graders.intake.roster import Person, Roster
from graders.pack import PACKS_DIR, Pack
from graders.parallel import (
    GradeOptions,
    ShareResults,
    broken,
    grading_key,
    run_shares,
    shares_of,
)
from graders.report import ReportWriter
from graders.results import SubmissionResult, ViolationRecord, write_atomic
from graders.sandbox import Isolation
from graders.sandbox.isolation import detect_isolation
from graders.submissions import Submission, prepare, student_id
from graders.tools import unready_tools

Progress = Callable[[SubmissionResult], None]
SETUP_COMMAND = "sudo apt-get install -y bubblewrap"


@dataclass
class BatchRequest:
    """What to grade and how."""

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
    zone: tzinfo | None = None  # for the export's zone-less times (default: the due date's)
    layout: str = "plain"
    intake_notes: list[str] = field(default_factory=list)  # export-level: what was not placed


@dataclass
class BatchOutcome:
    results: list[SubmissionResult]
    isolation: Isolation
    grader_errors: list[str] = field(default_factory=list)
    reused: int = 0
    shared: tuple[SharedLines, ...] = ()  # class consensus: lines no bundled starter has

    @property
    def ok(self) -> bool:
        return not self.grader_errors and all(
            r.status in ("graded", "missing") for r in self.results
        )


def grade_batch(request: BatchRequest) -> BatchOutcome:
    """Grade ``request.sources``; never raises for one student's problem.

    Refuses to start (GraderError) when a tool the pack needs is not ready, or when bubblewrap
    is not usable and the resource-limits fallback was not asked for (``isolation=RLIMITS``):
    marks made that way would be wrong, or made without the sandbox, for everyone. The student
    pre-check (``public_only``) goes on in both cases and says so.
    """
    pack = request.pack
    unready = unready_tools(pack)
    if unready and not request.public_only:
        raise GraderError("; ".join(unready))
    isolation = request.isolation or detect_isolation()
    if isolation is Isolation.RLIMITS and request.isolation is None and not request.public_only:
        raise GraderError(
            "bubblewrap is not usable on this machine: refusing to grade with resource limits "
            f"only. Install it with `{SETUP_COMMAND}`, or pass `--isolation rlimits` to grade "
            "without the sandbox (student code can then read what its uid can read)."
        )
    if request.cluster is not None:  # before any intake: a refused cluster grades nobody
        check_access(_access(request.cluster), isolation)
    options = GradeOptions(
        public_only=request.public_only,
        due=request.due,
        isolation=isolation,
        pack_digest=digest_pack(pack, hidden=not request.public_only),
        root=pack.root,
    )
    zone = request.zone or _due_zone(request)
    settled = settle(pack, [_found(s) for s in request.sources], roster=request.roster,
                     times=request.times, zone=zone)
    writer = ReportWriter(request.out_dir, pack) if request.out_dir else None
    feedback = (FeedbackWriter(request.out_dir / "feedback", pack, request.due)
                if request.out_dir and not request.public_only else None)
    work_root = Path(tempfile.mkdtemp(prefix="grade-work-"))
    work_root.chmod(0o700)  # the sandboxes get scratch copies, never this folder
    try:
        outcome = _grade(request, options, writer, work_root, settled.found, feedback)
    finally:
        shutil.rmtree(work_root, ignore_errors=True)
    for person in settled.missing:
        row = _missing(pack, person, options, _unique_among(person, outcome),
                       request.roster.kind if request.roster else "")
        if writer:
            writer.write_student(row)
        outcome.results.append(row)
    outcome.results.sort(key=lambda r: r.student.lower())
    if writer and request.write_index:
        writer.write_index(outcome.results, isolation, shared=outcome.shared)
        if request.out_dir:
            _write_intake(request, settled.missing, outcome)
    return outcome


def _found(source: Path | Found) -> Found:
    return source if isinstance(source, Found) else single(source)


def _due_zone(request: BatchRequest) -> tzinfo | None:
    """The zone of zone-less export times: the course's (``[course] timezone``), else the
    due date's."""
    course = request.pack.declaration.course.timezone
    if course:
        from zoneinfo import ZoneInfo

        return ZoneInfo(course)
    due = request.due or request.pack.declaration.late.due
    return due.tzinfo if due else None


def _grade(
    request: BatchRequest, options: GradeOptions, writer: ReportWriter | None, work_root: Path,
    found: list[Found], feedback: FeedbackWriter | None,
) -> BatchOutcome:
    assert options.isolation is not None
    outcome = BatchOutcome(results=[], isolation=options.isolation)
    identities: dict[str, Found] = {}

    def emit(result: SubmissionResult, *, write: bool = True) -> None:
        if result.student in identities:
            identify(result, identities[result.student])
        if writer and write:
            try:
                writer.write_student(result)
            except Exception as exc:  # noqa: BLE001 - one unwritable report must not stop us
                result.status = "grader-error"
                result.grader_errors.append(f"could not write this report: {exc!r}")
                outcome.grader_errors.append(
                    f"could not write the report of {result.student}: {exc!r}"
                )
        if feedback:
            try:
                feedback.write(result)
            except Exception as exc:  # noqa: BLE001 - the TA's report is still there
                outcome.grader_errors.append(
                    f"could not write the feedback page of {result.student}: {exc!r}"
                )
        outcome.results.append(result)
        if request.progress:
            request.progress(result)

    pending: list[Submission] = []
    prepared = _prepared(request, found, options, work_root, emit, identities)
    outcome.shared = class_consensus(request.pack, prepared)
    options = replace(options, shared=as_option(outcome.shared))
    for submission in prepared:
        key = grading_key(request.pack, submission, options)
        cached = writer.cached(submission.id, key) if writer and not request.fresh else None
        if cached is not None:
            outcome.reused += 1
            emit(cached, write=False)
            continue
        pending.append(submission)
    routes = _routes(request, pending, options)
    with contextlib.closing(routes):
        for share, results in routes:
            returned = {r.student: r for r in results} if isinstance(results, list) else {}
            for submission in share:
                result = returned.get(submission.id)
                if result is None:
                    why = f"its grading worker ended without a result ({_describe(results)})"
                    result = broken(request.pack, submission.id, options, why)
                emit(result)
    return outcome


def _prepared(
    request: BatchRequest,
    found: list[Found],
    options: GradeOptions,
    work_root: Path,
    emit: Callable[..., None],
    identities: dict[str, Found],
) -> list[Submission]:
    """Each submission prepared once, ids made unique (``bob/`` and ``bob.zip`` are two
    rows; two LMS submissions with one name get ``(2)``), each remembered with its identity."""
    prepared: list[Submission] = []
    seen: set[str] = set()
    for index, item in enumerate(found):
        name = _unique(item, seen)
        identities[name] = item
        try:
            submission = prepare(item.source, request.pack, work_root / str(index), student=name,
                                 notes=item.notes, submitted_at=item.submitted_at)
        except Exception:  # noqa: BLE001 - a grader bug must not stop the batch
            why = f"could not prepare this submission (grader bug):\n{traceback.format_exc()}"
            emit(broken(request.pack, name, options, why))
            continue
        prepared.append(submission)
    return prepared


def _unique(item: Found, seen: set[str]) -> str:
    name = item.id or student_id(item.source)
    plain = [item.source.name] if name == student_id(item.source) else []
    candidates = [name, *plain] + [f"{name} ({n})" for n in range(2, 10_000)]
    chosen = next(c for c in candidates if c.lower() not in seen)
    seen.add(chosen.lower())
    return chosen


def _unique_among(person: Person, outcome: BatchOutcome) -> str:
    taken = {r.student.lower() for r in outcome.results}
    name = missing_id(person)
    candidates = [name] + [f"{name} ({n})" for n in range(2, 10_000)]
    return next(c for c in candidates if c.lower() not in taken)


def identify(result: SubmissionResult, found: Found) -> None:
    """Put who the submission is (LMS id, name, e-mail, time and the export's own facts) on
    its result, for the reports and the LMS exports."""
    result.lms_id = found.lms_id or result.student
    result.display_name = found.display_name or result.student
    result.email = found.email
    result.submitted_at = found.submitted_at.isoformat() if found.submitted_at else ""
    result.lms = dict(found.lms)


def _missing(pack: Pack, person: Person, options: GradeOptions, name: str,
             kind: str = "") -> SubmissionResult:
    """The row of a student on the roster with no submission: 0, and says so."""
    result = SubmissionResult(
        student=name, assignment=pack.id, assignment_title=pack.title, status="missing",
        isolation=options.isolation.value if options.isolation else "",
        max_total=pack.declaration.max_points,
        violations=[ViolationRecord(
            rule="no-submission", title="No submission", file="",
            message="On the roster, but the export holds no submission from this student.",
        )],
        graded_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    result.lms_id, result.display_name, result.email = (
        person.lms_id, person.display_name, person.email
    )
    result.lms = {k: v for k, v in (("sis_id", person.sis_id), ("username", person.username))
                  if v}
    if kind:
        result.lms.update({"roster": kind, "roster_id": person.lms_id})
    return result


def _write_intake(request: BatchRequest, missing: list[Person], outcome: BatchOutcome) -> None:
    """``intake.json``: the layout, what could not be placed, who has no submission."""
    assert request.out_dir is not None
    summary = {
        "layout": request.layout,
        "notes": request.intake_notes,
        "roster": request.roster.kind if request.roster else None,
        "roster_columns": request.roster.columns if request.roster else [],
        "missing": [missing_id(person) for person in missing],
        "submissions": sum(r.status != "missing" for r in outcome.results),
    }
    write_atomic(request.out_dir / "intake.json", json.dumps(summary, indent=1))


def _routes(
    request: BatchRequest, pending: list[Submission], options: GradeOptions
) -> Generator[tuple[list[Submission], ShareResults], None, None]:
    """The shares with their results, from this machine's pool or from a Dask cluster."""
    if request.cluster is None:
        yield from run_shares(request.pack.id, shares_of(pending, request.jobs), options,
                              request.jobs)
        return
    from graders.cluster import close_client, open_client, run_on_cluster

    client = open_client(_access(request.cluster), options.isolation)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        yield from run_on_cluster(client, request.pack.id, shares_of(pending, workers), options)
    finally:
        close_client(client)


def _access(cluster: ClusterAccess | str) -> ClusterAccess:
    return cluster if isinstance(cluster, ClusterAccess) else ClusterAccess(cluster)


def _describe(results: object) -> str:
    if isinstance(results, BaseException):
        return "".join(traceback.format_exception_only(results)).strip()[-1500:]
    return "the worker returned no result for this student"


# Files in a pack folder that describe its tests and never change a mark (`grade selfcheck
# --mutants` writes and reads them): a new mutation score regrades nobody.
NEVER_A_MARK = frozenset({"mutation.json", "equivalent_mutants.toml"})


def digest_pack(pack: Pack, *, hidden: bool = True) -> str:
    """Changes when anything that could change a mark changes (tests, data, hidden inputs,
    engine). ``hidden=False`` (the student pre-check) never touches reference code, golden
    files or hidden inputs. Paths are hashed relative to their root (:func:`relative_name`),
    so two checkouts of one commit, say on two cluster workers, give one digest."""
    hasher = hashlib.sha256()
    engine = [p for p in PACKAGE_DIR.rglob("*") if PACKS_DIR not in p.parents]
    trees = [pack.dir, pack.templates_dir]
    if hidden:
        trees += [pack.golden_dir, pack.reference_dir, pack.fixtures_dir / "inputs"]
    files = engine + [p for tree in trees if tree.is_dir() for p in tree.rglob("*")]
    roots = (PACKAGE_DIR.parent, pack.root)
    named = {relative_name(path, roots): path for path in files
             if path.is_file() and "__pycache__" not in path.parts
             and path.name not in NEVER_A_MARK}
    for name in sorted(named):
        hasher.update(name.encode() + b"\0" + named[name].read_bytes())
    return hasher.hexdigest()


def relative_name(path: Path, roots: Sequence[Path]) -> str:
    """``path`` relative to the deepest of ``roots`` holding it (POSIX form), or absolute
    when none does."""
    holding = [root for root in roots if path.is_relative_to(root)]
    if not holding:
        return path.as_posix()
    return path.relative_to(max(holding, key=lambda root: len(root.parts))).as_posix()
