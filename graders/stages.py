"""The stages of grading, in the order a submission meets them.

1. **intake**: an export's submissions, with roster names and times settled (:func:`intake`);
2. **prepare**: each submission collected into a workspace of its own, ONCE, in the parent
   (:func:`prepare_all`); a route only carries prepared submissions;
3. **rules**: the pack's rule checks read the source and never run it (:func:`check_rules`);
4. **session**: the pack's tests run on a share of students in ONE pytest session
   (:func:`run_session`);
5. **mark**: the result from the outcomes and violations (:func:`marked`);
6. **write**: each result's report and feedback page (:func:`write`); on this machine's
   routes the worker that graded the share writes them (:func:`grade_and_write`), and the
   parent logs each result and writes the index.

:func:`grade_share` runs stages 3 to 5 on one share (:func:`shares_of`); every route (this
process, a pool, a cluster) runs exactly that function. :mod:`graders.pipeline` runs the
stages in this order for a whole batch. Each stage for each student runs inside a guard that
always yields a result for that student: the student's own pathological input is the student's
failure, anything else a grader error for that student alone. Each stage logs what it did to
the ``graders.stages`` logger (see :mod:`graders.gradelog`).
"""

from __future__ import annotations

import logging
import math
import shutil
import tempfile
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from graders import fixtures, kept
from graders.checks import run_rules, run_rules_skipping_unparsable
from graders.errors import GraderError
from graders.gradelog import SafeRecords
from graders.intake.base import Found
from graders.intake.people import Settled, settle
from graders.intake.roster import Roster
from graders.intake.teams import Teams
from graders.outcomes import GradeOptions, broken, grading_key, identify, mark
from graders.pack import Pack, get_pack
from graders.plugin import GradingPlugin, GradingState, own_session
from graders.results import SubmissionResult, TestOutcome, ViolationRecord
from graders.sandbox import Sandbox
from graders.submissions import Submission, prepare, student_id
from graders.tools import environment_mount

if TYPE_CHECKING:  # imported where a report is written: a cluster's worker never needs them
    from graders.feedback import FeedbackWriter
    from graders.report import ReportWriter

log = logging.getLogger(__name__)
log.addFilter(SafeRecords())
# No terminal and no xdist: a grading session never prints or distributes itself. No
# unraisable-exception plugin: it only turns them into warnings (off in pytest.ini), and it
# forces two full garbage collections of the grading process per session. No logging plugin:
# no grader test reads captured log records, and it wrapped each of a test's three phases in
# a capturing handler (189 tests a student: about 20 ms of a submission's grader CPU);
# the stages' own records still reach grade.log.
# pytest-postgresql is the harness's own test plugin: it imports mirakuru, whose exit hook
# SIGKILLs every process whose _MIRAKURU_UUID holds the exiting process's pid as a substring.
SESSION_FLAGS = ("-p", "no:terminal", "-p", "no:xdist", "-p", "no:xdist.looponfail",
                 "-p", "no:unraisableexception", "-p", "no:logging", "-p", "no:pytest_postgresql")


# -- 1. intake --------------------------------------------------------------------------------
def intake(
    pack: Pack, found: list[Found], *, roster: Roster | None,
    times: Mapping[str, datetime] | None, zone: tzinfo | None,
    extensions: Mapping[str, datetime] | None = None, teams: Teams | None = None,
) -> Settled:
    """What the export holds, each submission with its roster name, time and due settled."""
    settled = settle(pack, found, roster=roster, times=times, zone=zone, extensions=extensions,
                     teams=teams)
    for item in settled.found:
        log.info("intake: %s from %s", item.id or student_id(item.source), item.source.name)
    for person in settled.missing:
        log.info("intake: %s is on the roster with no submission",
                 person.display_name or person.lms_id)
    return settled


# -- 2. prepare -------------------------------------------------------------------------------
@dataclass
class Prepared:
    """The batch's prepared submissions, who each one is, and why the others could not be."""

    submissions: list[Submission] = field(default_factory=list)
    identities: dict[str, Found] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)  # student -> why (a grader bug)


def prepare_all(pack: Pack, found: list[Found], work_root: Path) -> Prepared:
    """Each submission prepared once, ids made unique (``bob/`` and ``bob.zip`` are two rows;
    two LMS submissions with one name get ``(2)``), each with its identity by id."""
    prepared = Prepared()
    seen: set[str] = set()
    for index, item in enumerate(found):
        name = _unique(item, seen)
        prepared.identities[name] = item
        try:
            submission = prepare(item.source, pack, work_root / str(index), student=name,
                                 notes=item.notes, submitted_at=item.submitted_at,
                                 due=item.due)
        except Exception:  # noqa: BLE001 - a grader bug must not stop the batch
            log.exception("prepare: %s could not be prepared", name)
            prepared.failed[name] = ("could not prepare this submission (grader bug):\n"
                                     + traceback.format_exc())
            continue
        log.info("prepare: %s: %s", name, ", ".join(sorted(submission.files)) or "no files")
        prepared.submissions.append(submission)
    return prepared


def _unique(item: Found, seen: set[str]) -> str:
    name = item.id or student_id(item.source)
    plain = [item.source.name] if name == student_id(item.source) else []
    candidates = [name, *plain] + [f"{name} ({n})" for n in range(2, 10_000)]
    chosen = next(c for c in candidates if c.lower() not in seen)
    seen.add(chosen.lower())
    return chosen


# -- 3 to 5 on one share ----------------------------------------------------------------------
SHARE_SIZE = 10  # students per pytest session: what a stopped run can lose, per worker


def shares_of(pending: list[Submission], workers: int) -> list[list[Submission]]:
    """``pending`` cut into shares of at most SHARE_SIZE, as many as a multiple of
    ``workers`` and of sizes one apart, so every worker ends about when the others do (24
    students on 2 workers were shares of 10, 10 and 4: one worker graded the last 4 alone)."""
    if not pending:
        return []
    workers = max(1, workers)
    count = min(len(pending), math.ceil(math.ceil(len(pending) / SHARE_SIZE) / workers) * workers)
    size, longer = divmod(len(pending), count)
    shares, start = [], 0
    for index in range(count):
        end = start + size + (index < longer)
        shares.append(pending[start:end])
        start = end
    return shares


def grade_share(
    pack_id: str, submissions: Sequence[Submission], options: GradeOptions
) -> list[SubmissionResult]:
    """Grade prepared ``submissions`` (rules, session, mark) and return one result per
    submission, in order; writes nothing. Never raises for a student's problem."""
    pack = get_pack(pack_id, options.root).with_shared(options.shared)
    sandbox = Sandbox(options.isolation, environment_mount(pack), checkout=pack.root)
    work_root = Path(tempfile.mkdtemp(prefix="grade-share-"))
    work_root.chmod(0o755)
    try:
        staged = [_Staged(s, *check_rules(pack, s)) for s in submissions]
        outcomes, problems = run_session(pack, sandbox, list(submissions), options, work_root)
        return [marked(pack, stage, outcomes.get(stage.submission.id, []),
                       stage.errors + problems.get(stage.submission.id, []), options)
                for stage in staged]
    finally:
        sandbox.close()
        shutil.rmtree(work_root, ignore_errors=True)


@dataclass
class _Staged:
    submission: Submission
    violations: list[ViolationRecord]
    errors: list[str]


# -- 3. rules ---------------------------------------------------------------------------------
def check_rules(pack: Pack, submission: Submission) -> tuple[list[ViolationRecord], list[str]]:
    """The rule checks' violations, and grader errors met on the way."""
    try:
        found: tuple[list[ViolationRecord], list[str]] = run_rules(pack, submission), []
    except (RecursionError, MemoryError):
        found = run_rules_skipping_unparsable(pack, submission)
    except Exception:  # noqa: BLE001 - a broken rule is a grader error for this student only
        found = [], [f"the rule checks failed (grader error):\n{traceback.format_exc()[-3000:]}"]
    log.debug("rules: %s: %s", submission.id,
              ", ".join(sorted({v.rule for v in found[0]})) or "none broken")
    return found


# -- 4. session -------------------------------------------------------------------------------
def run_session(
    pack: Pack, sandbox: Sandbox, submissions: list[Submission], options: GradeOptions,
    work_root: Path,
) -> tuple[dict[str, list[TestOutcome]], dict[str, list[str]]]:
    """Run the pack's tests on ``submissions`` in one pytest session: outcomes and grader
    problems by student. A student whose tests did not run gets a grader-error outcome."""
    if not submissions:
        return {}, {}
    log.debug("session: %s", ", ".join(s.id for s in submissions))
    problems: dict[str, list[str]] = {}
    try:
        reference = (
            None if options.public_only
            else pack.build_reference_workspace(work_root / "__reference__")
        )
        state = GradingState(pack, sandbox, submissions, options.public_only, reference,
                             reference_answers=kept.reference_answers(options.pack_digest))
        plugins = [GradingPlugin(state), fixtures]
        with own_session() as loaded:
            code = pytest.ExitCode(pytest.main([*_pytest_args(pack), *loaded], plugins=plugins))
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


def _session_error(why: str) -> TestOutcome:
    return TestOutcome(name="grading session", case="", outcome="error", public=False,
                       message=f"grader error: {why}")


def _pytest_args(pack: Pack) -> list[str]:
    if not pack.test_files:
        raise GraderError(f"pack {pack.id!r} has no grader tests (test_*.py) in {pack.dir}")
    return [*pack.session_args(), *SESSION_FLAGS]


# -- 5. mark ----------------------------------------------------------------------------------
def marked(
    pack: Pack, stage: _Staged, tests: list[TestOutcome], errors: list[str],
    options: GradeOptions,
) -> SubmissionResult:
    """The student's result; a marking bug makes a grader-error row that keeps what is known."""
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


# -- 6. write ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Writing:
    """Where the worker that grades a share writes its reports: the batch's output folder
    (a local route shares the parent's file system), whether feedback pages are written, the
    due date they show, and who each of the share's students is."""

    out_dir: Path
    feedback: bool
    due: datetime | None = None
    identities: Mapping[str, Found] = field(default_factory=dict)

    def for_share(self, share: Sequence[Submission]) -> Writing:
        """The same, knowing only the share's students (less to send to the worker)."""
        return replace(self, identities={s.id: self.identities[s.id] for s in share
                                         if s.id in self.identities})


@dataclass
class WrittenShare:
    """A share graded and written by its worker: the results (as written, overrides applied),
    and what could not be written, by student."""

    results: list[SubmissionResult]
    problems: dict[str, list[str]] = field(default_factory=dict)


def grade_and_write(
    pack_id: str, submissions: Sequence[Submission], options: GradeOptions, writing: Writing
) -> WrittenShare:
    """:func:`grade_share`, then each student's report and feedback page written here, in
    the worker, exactly as the parent would write them (:func:`write_share`)."""
    return write_share(grade_share(pack_id, submissions, options), pack_id, options, writing)


def write_share(
    results: list[SubmissionResult], pack_id: str, options: GradeOptions, writing: Writing
) -> WrittenShare:
    """Write each result's report and feedback page (logged by the parent, :func:`logged`)."""
    from graders.feedback import FeedbackWriter
    from graders.report import ReportWriter

    pack = get_pack(pack_id, options.root)
    report = ReportWriter(writing.out_dir, pack)
    feedback = (FeedbackWriter(writing.out_dir / "feedback", pack, writing.due)
                if writing.feedback else None)
    written = WrittenShare(results)
    for result in results:
        if result.student in writing.identities:
            identify(result, writing.identities[result.student])
        written.problems[result.student] = _write_files(result, report, feedback)
    return written


def write(
    result: SubmissionResult, report: ReportWriter | None, feedback: FeedbackWriter | None
) -> list[str]:
    """Write the student's report and feedback page; what could not be written, said."""
    problems = _write_files(result, report, feedback)
    logged(result, problems, written=report is not None)
    return problems


def logged(result: SubmissionResult, problems: list[str], *, written: bool) -> None:
    """Log what the rules, session, mark and write gave this student (the parent does, on
    every route: a worker's log is not the batch's)."""
    _log_result(result)
    if written and not any(p.startswith("could not write the report") for p in problems):
        log.info("write: %s: report written", result.student)
    for problem in problems:
        log.error("write: %s", problem)


def _write_files(
    result: SubmissionResult, report: ReportWriter | None, feedback: FeedbackWriter | None
) -> list[str]:
    problems: list[str] = []
    if report:
        try:
            report.write_student(result)
        except Exception as exc:  # noqa: BLE001 - one unwritable report must not stop us
            result.status = "grader-error"
            result.grader_errors.append(f"could not write this report: {exc!r}")
            problems.append(f"could not write the report of {result.student}: {exc!r}")
    if feedback:
        try:
            feedback.write(result)
        except Exception as exc:  # noqa: BLE001 - the TA's report is still there
            problems.append(f"could not write the feedback page of {result.student}: {exc!r}")
    return problems


def _log_result(result: SubmissionResult) -> None:
    """What the rules, the session and the mark gave this student (on every route, the
    parent logs it from the result)."""
    who = result.student
    rules = sorted({v.rule for v in result.violations})
    log.info("rules: %s: %s", who, ", ".join(rules) if rules else "none broken")
    passed = sum(t.outcome == "passed" for t in result.tests)
    log.info("session: %s: %d of %d test(s) passed", who, passed, len(result.tests))
    for test in result.tests:
        if test.outcome != "passed":
            log.debug("session: %s: %s [%s] %s: %s", who, test.name, test.case, test.outcome,
                      test.message.splitlines()[0] if test.message else "")
    log.info("mark: %s: %g / %g (%s)", who, result.total, result.max_total, result.status)
    for error in result.grader_errors:
        log.warning("mark: %s: grader error: %s", who, error.splitlines()[0] if error else "")
