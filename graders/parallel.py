"""Grade shares of a batch: :func:`grade_share`, the one unit of work, and the routes that run it.

A share is a few prepared submissions. :func:`grade_share` grades them in ONE pytest session and
returns plain, picklable results; it writes nothing. :func:`run_shares` runs the shares in this
process (``jobs=1``) or in a :class:`~concurrent.futures.ProcessPoolExecutor`, and yields each
share's results as its future completes; the parent writes every report. The same function can
be submitted to any other executor (a Dask cluster's ``client.submit``) unchanged.

Inside a share each stage for each student runs in a guard that always yields that student's
result: the student's own pathological input (a file too deep for Python's parser) is the
student's failure; anything else is a grader error for that student alone.
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import multiprocessing
import shutil
import signal
import tempfile
import traceback
from collections.abc import Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graders import fixtures
from graders.checks import run_rules, title_of
from graders.environment import module_notes
from graders.errors import GraderError
from graders.marking import deductions_for, late_deduction, mark_criteria, total_of
from graders.pack import PACKS_DIR, Pack, get_pack
from graders.plugin import GradingPlugin, GradingState
from graders.results import SubmissionResult, TestOutcome, ViolationRecord
from graders.sandbox import Isolation, Sandbox
from graders.submissions import Submission, materialize, prepare, student_id
from graders.tools import environment_mount

SHARE_SIZE = 10  # students per pytest session: what a stopped run can lose, per worker
STOP_SECONDS = 10.0
ShareResults = list[SubmissionResult] | BaseException
# No terminal and no xdist: a grading session never prints or distributes itself.
SESSION_FLAGS = ("-p", "no:terminal", "-p", "no:xdist", "-p", "no:xdist.looponfail")


@dataclass(frozen=True)
class GradeOptions:
    """How every share of one batch is graded: plain and picklable, the same on every route."""

    public_only: bool = False
    due: datetime | None = None
    isolation: Isolation | None = None
    pack_digest: str = ""
    root: Path | None = None  # the project root holding the pack's trees (None: the default)
    # Class consensus (graders.consensus): file -> lines most of the batch shares that no
    # bundled starter has; computed by the parent before any rule runs.
    shared: tuple[tuple[str, tuple[str, ...]], ...] = ()


def grade_share(
    pack_id: str, sources: Sequence[Path | Submission], options: GradeOptions
) -> list[SubmissionResult]:
    """Grade ``sources`` (prepared submissions, or folders/zips to prepare here) and return one
    result per source, in order. Never raises for a student's problem."""
    pack = get_pack(pack_id, options.root).with_shared(options.shared)
    sandbox = Sandbox(options.isolation, environment_mount(pack))
    work_root = Path(tempfile.mkdtemp(prefix="grade-share-"))
    work_root.chmod(0o755)
    try:
        return _grade_share(pack, sandbox, work_root, list(sources), options)
    finally:
        sandbox.close()
        shutil.rmtree(work_root, ignore_errors=True)


@dataclass
class _Staged:
    submission: Submission
    violations: list[ViolationRecord]
    errors: list[str]


def _grade_share(
    pack: Pack, sandbox: Sandbox, work_root: Path, sources: list[Path | Submission],
    options: GradeOptions,
) -> list[SubmissionResult]:
    results: dict[int, SubmissionResult] = {}
    staged: dict[int, _Staged] = {}
    for index, item in enumerate(sources):
        try:
            submission = _prepared(pack, item, work_root / str(index))
        except Exception:  # noqa: BLE001 - a grader bug must not stop the batch
            name = item.id if isinstance(item, Submission) else student_id(item)
            why = f"could not prepare this submission (grader bug):\n{traceback.format_exc()}"
            results[index] = broken(pack, name, options, why)
            continue
        staged[index] = _Staged(submission, *_checked(pack, submission))
    submissions = [stage.submission for stage in staged.values()]
    outcomes, problems = _session(pack, sandbox, submissions, options, work_root)
    for index, stage in staged.items():
        student = stage.submission.id
        errors = stage.errors + problems.get(student, [])
        results[index] = _marked(pack, stage, outcomes.get(student, []), errors, options)
    return [results[index] for index in sorted(results)]


def _prepared(pack: Pack, item: Path | Submission, folder: Path) -> Submission:
    """The submission, its workspace rebuilt from its collected files when it is not on this
    machine (id, time and intake notes stay as the parent collected them)."""
    if isinstance(item, Submission):
        return item if item.workspace.is_dir() else materialize(item, pack, folder)
    return prepare(item, pack, folder)


def _checked(pack: Pack, submission: Submission) -> tuple[list[ViolationRecord], list[str]]:
    """The rule checks' violations, and grader errors met on the way."""
    try:
        return run_rules(pack, submission), []
    except (RecursionError, MemoryError):
        return _too_complex(pack, submission)
    except Exception:  # noqa: BLE001 - a broken rule is a grader error for this student only
        return [], [f"the rule checks failed (grader error):\n{traceback.format_exc()[-3000:]}"]


def _too_complex(pack: Pack, submission: Submission) -> tuple[list[ViolationRecord], list[str]]:
    """A file too long or too deeply nested for Python's parser is the student's failure,
    reported like a syntax error; the other files are still checked."""
    records, kept = [], dict(submission.files)
    for name, source in submission.files.items():
        if name.endswith(".py") and _beyond_parser(source):
            kept.pop(name)
            lines = source.splitlines() or [""]
            longest = max(range(len(lines)), key=lambda n: len(lines[n]))
            records.append(ViolationRecord(
                rule="syntax-error", title=title_of("syntax-error"), file=name, line=longest + 1,
                message=f"`{name}` could not be parsed: an expression is too long or nested "
                "too deeply for Python (RecursionError/MemoryError in the parser).",
                fix="Split the expression into several statements.",
            ))
    try:
        records += run_rules(pack, replace(submission, files=kept))
    except Exception:  # noqa: BLE001
        return records, [f"the rule checks failed (grader error):\n{traceback.format_exc()}"]
    return records, []


def _beyond_parser(source: str) -> bool:
    try:
        ast.parse(source)
    except (RecursionError, MemoryError):
        return True
    except (SyntaxError, ValueError):
        return False
    return False


def _session(
    pack: Pack, sandbox: Sandbox, submissions: list[Submission], options: GradeOptions,
    work_root: Path,
) -> tuple[dict[str, list[TestOutcome]], dict[str, list[str]]]:
    """Run the pack's tests on ``submissions`` in one pytest session: outcomes and grader
    problems by student. A student whose tests did not run gets a grader-error outcome."""
    if not submissions:
        return {}, {}
    problems: dict[str, list[str]] = {}
    try:
        reference = (
            None if options.public_only
            else pack.build_reference_workspace(work_root / "__reference__")
        )
        state = GradingState(pack, sandbox, submissions, options.public_only, reference)
        plugins = [GradingPlugin(state), fixtures]
        code = pytest.ExitCode(pytest.main(_pytest_args(pack), plugins=plugins))
    except GraderError:
        raise
    except Exception:  # noqa: BLE001 - the session itself broke: every student's tests are lost
        why = f"the grading session failed:\n{traceback.format_exc()[-3000:]}"
        return {s.id: [_session_error(why)] for s in submissions}, {}
    if state.collection_errors:  # pytest says INTERRUPTED for these too: not a Ctrl-C
        why = "the pack's tests could not be collected (a pack bug, not the student's):\n"
        return {s.id: [_session_error(why + "\n".join(state.collection_errors))]
                for s in submissions}, {}
    if code is pytest.ExitCode.INTERRUPTED:
        raise KeyboardInterrupt
    problems.update(state.problems)
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED,
                    pytest.ExitCode.NO_TESTS_COLLECTED):
        why = f"the grading session ended with pytest exit code {int(code)} ({code.name})"
        for submission in submissions:
            problems.setdefault(submission.id, []).append(why)
    outcomes = dict(state.outcomes)
    for submission in submissions:
        if submission.id not in state.finished and not outcomes.get(submission.id):
            outcomes[submission.id] = [_session_error(f"the tests did not run ({code.name})")]
    return outcomes, problems


def _marked(
    pack: Pack, stage: _Staged, tests: list[TestOutcome], errors: list[str],
    options: GradeOptions,
) -> SubmissionResult:
    submission = stage.submission
    try:
        return mark(pack, submission, tests, stage.violations, errors, options)
    except Exception as exc:  # noqa: BLE001 - e.g. a submission time without a timezone
        result = broken(pack, submission.id, options,
                        f"could not mark this submission (grader error): {exc!r}", submission)
        result.tests, result.violations = tests, stage.violations
        result.grader_errors += errors
        result.digest = grading_key(pack, submission, options)
        return result


def mark(
    pack: Pack, submission: Submission, tests: list[TestOutcome],
    violations: list[ViolationRecord], errors: list[str], options: GradeOptions,
) -> SubmissionResult:
    """The student's result from their outcomes and violations (raises on a marking bug)."""
    notes, missing = module_notes(pack, submission, tests, violations)
    violations, errors = [*violations, *notes], [*errors, *missing]
    marks, problems = mark_criteria(pack, tests, violations, public_only=options.public_only)
    deductions = deductions_for(violations)
    late = late_deduction(pack, submission.submitted_at, options.due, total_of(marks, deductions))
    if late:
        deductions.append(late)
    errors = errors + problems + [
        f"{t.name} [{t.case}]: {t.message}" for t in tests if t.outcome == "error"
    ]
    return SubmissionResult(
        student=submission.id,
        assignment=pack.id,
        assignment_title=pack.title,
        status="grader-error" if errors else "graded",
        isolation=options.isolation.value if options.isolation else "",
        total=total_of(marks, deductions),
        max_total=pack.declaration.max_points,
        criteria=marks,
        deductions=deductions,
        tests=tests,
        violations=violations,
        files=dict(submission.files),
        grader_errors=errors,
        digest=grading_key(pack, submission, options),
        graded_at=datetime.now(UTC).isoformat(timespec="seconds"),
        seconds=round(sum(t.seconds for t in tests), 2),
        mode="check" if options.public_only else "full",
        helpers=list(submission.helpers),
        aliases=dict(submission.aliases),
        ignored=list(submission.ignored),
    )


def grading_key(pack: Pack, submission: Submission, options: GradeOptions) -> str:
    """The ONE key a stored result is reused under: anything that could change a mark is in
    it (files, intake problems, pack and engine digest with hidden inputs, mode, effective due
    date, submission time, isolation level, the batch's class consensus). Any change
    regrades."""
    due = options.due or pack.declaration.late.due
    payload = {
        "student": submission.id,
        "files": {
            name: hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
            for name, text in sorted(submission.files.items())
        },
        "workspace": submission.digest,
        "problems": [problem.to_dict() for problem in submission.problems],
        "pack": options.pack_digest,
        "mode": "check" if options.public_only else "full",
        "due": due.isoformat() if due else None,
        "submitted_at": submission.submitted_at.isoformat() if submission.submitted_at else None,
        "isolation": options.isolation.value if options.isolation else None,
        "class_starter": [[file, list(lines)] for file, lines in options.shared],
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def broken(pack: Pack, student: str, options: GradeOptions, why: str,
           submission: Submission | None = None) -> SubmissionResult:
    """A grader-error row for a student nothing else could be produced for (with what is known
    of their ``submission``, when it was collected)."""
    result = SubmissionResult(
        student=student,
        assignment=pack.id,
        assignment_title=pack.title,
        status="grader-error",
        isolation=options.isolation.value if options.isolation else "",
        max_total=pack.declaration.max_points,
        grader_errors=[why[-3000:]],
        graded_at=datetime.now(UTC).isoformat(timespec="seconds"),
        mode="check" if options.public_only else "full",
    )
    if submission is not None:
        result.files = dict(submission.files)
        result.helpers, result.ignored = list(submission.helpers), list(submission.ignored)
        result.aliases = dict(submission.aliases)
    return result


def _session_error(why: str) -> TestOutcome:
    return TestOutcome(name="grading session", case="", outcome="error", public=False,
                       message=f"grader error: {why}")


def _pytest_args(pack: Pack) -> list[str]:
    if not pack.test_files:
        raise GraderError(f"pack {pack.id!r} has no grader tests (test_*.py) in {pack.dir}")
    return [*map(str, pack.test_files), "-c", str(PACKS_DIR / "pytest.ini"),
            "--rootdir", str(pack.dir), *SESSION_FLAGS]


# -- routes ----------------------------------------------------------------------------------
def shares_of(pending: list[Submission], jobs: int) -> list[list[Submission]]:
    """``pending`` cut into shares: at most SHARE_SIZE each, and enough to keep ``jobs``
    workers busy."""
    if not pending:
        return []
    size = max(1, min(SHARE_SIZE, math.ceil(len(pending) / max(1, jobs))))
    return [pending[start:start + size] for start in range(0, len(pending), size)]


def run_shares(
    pack_id: str, shares: list[list[Submission]], options: GradeOptions, jobs: int
) -> Generator[tuple[list[Submission], ShareResults], None, None]:
    """Each share with its results (or the exception that lost them), as they complete.

    With ``jobs > 1`` the shares go to a process pool; closing this iterator early (an
    interrupt, an error in the caller) stops every worker, and it never returns before its
    workers are gone."""
    if jobs <= 1 or len(shares) <= 1:
        for share in shares:
            try:
                results: ShareResults = grade_share(pack_id, share, options)
            except Exception as exc:  # noqa: BLE001 - as a pool would: the share's rows say why
                results = exc
            yield share, results
        return
    context = multiprocessing.get_context("spawn")  # no inherited threads, locks or pytest state
    pool = ProcessPoolExecutor(min(jobs, len(shares)), mp_context=context,
                               initializer=_worker_signals)
    try:
        futures: dict[Future[list[SubmissionResult]], list[Submission]] = {
            pool.submit(grade_share, pack_id, share, options): share for share in shares
        }
        for future in as_completed(futures):
            error = future.exception()
            yield futures[future], error if error is not None else future.result()
    except BaseException:
        _stop(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _worker_signals() -> None:
    """Workers leave Ctrl-C to the parent, and clean up their sandboxes when terminated."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end every worker (each closes its sandboxes first)."""
    processes = list(getattr(pool, "_processes", {}).values())  # no public handle on them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(STOP_SECONDS)
        if process.is_alive():
            process.kill()
            process.join()
