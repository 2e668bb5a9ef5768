"""Grade a batch of submissions of one assignment: the engine's main job.

Prepare every submission, run the rule checks, run the pack's grader tests for all of them in
ONE pytest session, mark, and write each student's JSON and HTML as soon as they are done
(atomically), so a run stopped midway loses nothing and the next run grades only the rest.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graders import PACKAGE_DIR
from graders.checks import run_rules
from graders.errors import GraderError
from graders.marking import deductions_for, late_deduction, mark_criteria, total_of
from graders.packs import PACKS_DIR, Pack
from graders.parallel import grade_in_jobs
from graders.plugin import GradingPlugin, GradingState
from graders.report import ReportWriter
from graders.results import SubmissionResult, TestOutcome, ViolationRecord
from graders.sandbox import Isolation, Sandbox
from graders.submissions import Submission, prepare, student_id
from graders.tools import unready_tools

Progress = Callable[[SubmissionResult], None]


@dataclass
class BatchRequest:
    """What to grade and how."""

    pack: Pack
    sources: list[Path]
    out_dir: Path | None = None
    public_only: bool = False
    fresh: bool = False
    require_sandbox: bool = False
    due: datetime | None = None
    isolation: Isolation | None = None
    progress: Progress | None = None
    jobs: int = 1
    write_index: bool = True
    pack_digest: str | None = None  # given by a parent run to its jobs, so all agree on it


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
    """Grade ``request.sources``; never raises for a student's problem.

    Refuses to start (GraderError) when a tool the pack needs is not ready: marks made without
    it would be wrong for everyone. The student pre-check goes on, and the tests that need the
    tool say what to install.
    """
    unready = unready_tools(request.pack)
    if unready and not request.public_only:
        raise GraderError("; ".join(unready))
    sandbox = Sandbox(request.isolation)
    if request.require_sandbox and sandbox.isolation is Isolation.RLIMITS:
        sandbox.close()
        raise GraderError(
            "bubblewrap is not usable on this machine and --require-sandbox was "
            "given: refusing to grade with resource limits only"
        )
    work_root = Path(tempfile.mkdtemp(prefix="grade-work-"))
    work_root.chmod(0o755)
    writer = ReportWriter(request.out_dir, request.pack) if request.out_dir else None
    try:
        return _run(request, sandbox, work_root, writer)
    finally:
        sandbox.close()
        shutil.rmtree(work_root, ignore_errors=True)


def _run(
    request: BatchRequest, sandbox: Sandbox, work_root: Path, writer: ReportWriter | None
) -> BatchOutcome:
    pack = request.pack
    pack_digest = request.pack_digest or digest_pack(pack, hidden=not request.public_only)
    request.pack_digest = pack_digest
    outcome = BatchOutcome(results=[], isolation=sandbox.isolation)
    pending: list[Submission] = []
    violations: dict[str, list[ViolationRecord]] = {}
    for source in request.sources:
        try:
            submission = prepare(source, pack, work_root)
            submission.digest = _hash(submission.digest + pack_digest + request.public_only * "p")
        except Exception:  # noqa: BLE001 - a grader bug must not stop the batch
            outcome.results.append(_broken(pack, source, sandbox, traceback.format_exc()))
            continue
        cached = writer.cached(submission) if writer and not request.fresh else None
        if cached is not None:
            outcome.results.append(cached)
            outcome.reused += 1
            continue
        violations[submission.id] = run_rules(pack, submission)
        pending.append(submission)

    def done(submission: Submission, tests: list[TestOutcome]) -> None:
        result = _result(request, sandbox, submission, tests, violations[submission.id])
        outcome.results.append(result)
        try:
            if writer:
                writer.write_student(result)
        except Exception as exc:  # noqa: BLE001 - one unwritable report must not stop the batch
            result.status = "grader-error"
            result.grader_errors.append(f"could not write this report: {exc!r}")
            outcome.grader_errors.append(f"could not write the report of {result.student}: {exc!r}")
        if request.progress:
            request.progress(result)

    if pending and writer and request.jobs > 1 and len(pending) > 1:
        def collected(result: SubmissionResult) -> None:
            outcome.results.append(result)
            if request.progress:
                request.progress(result)

        lost, why = grade_in_jobs(request, pending, writer, collected)
        for submission in lost:
            done(submission, [_session_error(f"its grading job ended without a result. {why}")])
    elif pending:
        reference = (
            None
            if request.public_only
            else pack.build_reference_workspace(work_root / "__reference__")
        )
        state = GradingState(pack, sandbox, pending, request.public_only, reference, done)
        code = pytest.ExitCode(pytest.main(_pytest_args(pack), plugins=[GradingPlugin(state)]))
        outcome.grader_errors += state.problems
        if code not in (
            pytest.ExitCode.OK,
            pytest.ExitCode.TESTS_FAILED,
            pytest.ExitCode.NO_TESTS_COLLECTED,
        ):
            outcome.grader_errors.append(
                f"the grading session for {pack.id} ended with pytest "
                f"exit code {int(code)} ({code.name})"
            )
        for submission in pending:
            if submission.id not in state.finished:
                state.finished.add(submission.id)
                done(submission, [_session_error(f"the tests did not run (pytest {code.name})")])
    outcome.results.sort(key=lambda r: r.student.lower())
    if writer and request.write_index:
        writer.write_index(outcome.results, sandbox.isolation)
    return outcome


def _session_error(why: str) -> TestOutcome:
    return TestOutcome(name="grading session", case="", outcome="error", public=False,
                       message=f"grader error: {why}")


def _pytest_args(pack: Pack) -> list[str]:
    if not pack.test_files:
        raise GraderError(f"pack {pack.id!r} has no grader tests (test_*.py) in {pack.dir}")
    return [
        *map(str, pack.test_files),
        "-c",
        str(PACKS_DIR / "pytest.ini"),
        "--rootdir",
        str(pack.dir),
        "-p",
        "no:terminal",
    ]


def _result(
    request: BatchRequest,
    sandbox: Sandbox,
    submission: Submission,
    tests: list[TestOutcome],
    violations: list[ViolationRecord],
) -> SubmissionResult:
    pack = request.pack
    marks, problems = mark_criteria(pack, tests, violations, public_only=request.public_only)
    deductions = deductions_for(violations)
    late = late_deduction(pack, submission.submitted_at, request.due, total_of(marks, deductions))
    if late:
        deductions.append(late)
    errors = problems + [f"{t.name} [{t.case}]: {t.message}" for t in tests if t.outcome == "error"]
    return SubmissionResult(
        student=submission.id,
        assignment=pack.id,
        assignment_title=pack.title,
        status="grader-error" if errors else "graded",
        isolation=sandbox.isolation.value,
        total=total_of(marks, deductions),
        max_total=pack.declaration.max_points,
        criteria=marks,
        deductions=deductions,
        tests=tests,
        violations=violations,
        files=dict(submission.files),
        grader_errors=errors,
        digest=submission.digest,
        graded_at=datetime.now(UTC).isoformat(timespec="seconds"),
        seconds=round(sum(t.seconds for t in tests), 2),
        mode="check" if request.public_only else "full",
    )


def _broken(pack: Pack, source: Path, sandbox: Sandbox, trace: str) -> SubmissionResult:
    return SubmissionResult(
        student=student_id(source),
        assignment=pack.id,
        assignment_title=pack.title,
        status="grader-error",
        isolation=sandbox.isolation.value,
        max_total=pack.declaration.max_points,
        grader_errors=[f"could not prepare this submission (grader bug):\n{trace[-3000:]}"],
        graded_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )


def digest_pack(pack: Pack, *, hidden: bool = True) -> str:
    """Changes when anything that could change a mark changes (tests, data, engine).

    ``hidden=False`` (the student pre-check) never touches reference code or golden files."""
    hasher = hashlib.sha256()
    engine = [p for p in PACKAGE_DIR.rglob("*") if PACKS_DIR not in p.parents]
    trees = [pack.dir, pack.templates_dir]
    if hidden:
        trees += [pack.golden_dir, pack.reference_dir]
    files = engine + [p for tree in trees if tree.is_dir() for p in tree.rglob("*")]
    for path in sorted(files):
        if path.is_file() and "__pycache__" not in path.parts:
            hasher.update(str(path).encode() + b"\0" + path.read_bytes())
    return hasher.hexdigest()


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
