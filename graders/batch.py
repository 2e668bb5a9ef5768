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
import shutil
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from graders import PACKAGE_DIR
from graders.errors import GraderError
from graders.packs import PACKS_DIR, Pack
from graders.parallel import GradeOptions, broken, grading_key, run_shares, shares_of
from graders.report import ReportWriter
from graders.results import SubmissionResult
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
    sources: list[Path]
    out_dir: Path | None = None
    public_only: bool = False
    fresh: bool = False
    due: datetime | None = None
    isolation: Isolation | None = None  # RLIMITS here is the only way to grade without bwrap
    progress: Progress | None = None
    jobs: int = 1
    write_index: bool = True


@dataclass
class BatchOutcome:
    results: list[SubmissionResult]
    isolation: Isolation
    grader_errors: list[str] = field(default_factory=list)
    reused: int = 0

    @property
    def ok(self) -> bool:
        return not self.grader_errors and all(r.status == "graded" for r in self.results)


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
    options = GradeOptions(
        public_only=request.public_only,
        due=request.due,
        isolation=isolation,
        pack_digest=digest_pack(pack, hidden=not request.public_only),
        root=pack.root,
    )
    writer = ReportWriter(request.out_dir, pack) if request.out_dir else None
    work_root = Path(tempfile.mkdtemp(prefix="grade-work-"))
    work_root.chmod(0o755)
    try:
        outcome = _grade(request, options, writer, work_root)
    finally:
        shutil.rmtree(work_root, ignore_errors=True)
    outcome.results.sort(key=lambda r: r.student.lower())
    if writer and request.write_index:
        writer.write_index(outcome.results, isolation)
    return outcome


def _grade(
    request: BatchRequest, options: GradeOptions, writer: ReportWriter | None, work_root: Path
) -> BatchOutcome:
    assert options.isolation is not None
    outcome = BatchOutcome(results=[], isolation=options.isolation)

    def emit(result: SubmissionResult, *, write: bool = True) -> None:
        if writer and write:
            try:
                writer.write_student(result)
            except Exception as exc:  # noqa: BLE001 - one unwritable report must not stop us
                result.status = "grader-error"
                result.grader_errors.append(f"could not write this report: {exc!r}")
                outcome.grader_errors.append(
                    f"could not write the report of {result.student}: {exc!r}"
                )
        outcome.results.append(result)
        if request.progress:
            request.progress(result)

    pending: list[Submission] = []
    for submission in _prepared(request, options, work_root, emit):
        key = grading_key(request.pack, submission, options)
        cached = writer.cached(submission.id, key) if writer and not request.fresh else None
        if cached is not None:
            outcome.reused += 1
            emit(cached, write=False)
            continue
        pending.append(submission)
    routes = run_shares(request.pack.id, shares_of(pending, request.jobs), options, request.jobs)
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
    options: GradeOptions,
    work_root: Path,
    emit: Callable[..., None],
) -> list[Submission]:
    """Each source prepared once, ids made unique (``bob/`` and ``bob.zip`` are two rows)."""
    prepared: list[Submission] = []
    seen: set[str] = set()
    for index, source in enumerate(request.sources):
        try:
            submission = prepare(source, request.pack, work_root / str(index))
        except Exception:  # noqa: BLE001 - a grader bug must not stop the batch
            why = f"could not prepare this submission (grader bug):\n{traceback.format_exc()}"
            emit(broken(request.pack, _unique(student_id(source), source, seen), options, why))
            continue
        submission.id = _unique(submission.id, source, seen)
        prepared.append(submission)
    return prepared


def _unique(name: str, source: Path, seen: set[str]) -> str:
    candidates = [name, source.name] + [f"{name} ({n})" for n in range(2, 10_000)]
    chosen = next(c for c in candidates if c.lower() not in seen)
    seen.add(chosen.lower())
    return chosen


def _describe(results: object) -> str:
    if isinstance(results, BaseException):
        return "".join(traceback.format_exception_only(results)).strip()[-1500:]
    return "the worker returned no result for this student"


def digest_pack(pack: Pack, *, hidden: bool = True) -> str:
    """Changes when anything that could change a mark changes (tests, data, hidden inputs,
    engine). ``hidden=False`` (the student pre-check) never touches reference code, golden
    files or hidden inputs."""
    hasher = hashlib.sha256()
    engine = [p for p in PACKAGE_DIR.rglob("*") if PACKS_DIR not in p.parents]
    trees = [pack.dir, pack.templates_dir]
    if hidden:
        trees += [pack.golden_dir, pack.reference_dir, pack.fixtures_dir / "inputs"]
    files = engine + [p for tree in trees if tree.is_dir() for p in tree.rglob("*")]
    for path in sorted(files):
        if path.is_file() and "__pycache__" not in path.parts:
            hasher.update(str(path).encode() + b"\0" + path.read_bytes())
    return hasher.hexdigest()
