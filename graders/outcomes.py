"""Results, keys and digests: what every route returns and every view reads.

Below both the batch and its routes, so that each of them, and each view (console, report,
export), reads these without importing the batch. The result constructors are here and only
here: :func:`mark` (a graded student), :func:`broken` (a grader error for one student) and
:func:`missing` (a roster row with no submission); :func:`remark` puts a stored result under a
new due date. :func:`grading_key` is the one key a stored result is reused under;
:func:`digest_pack` the digest of everything that could change what the tests find.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from graders import PACKAGE_DIR
from graders.checks import title_of
from graders.consensus import SharedLines
from graders.environment import module_notes
from graders.intake.base import Found
from graders.intake.roster import Person
from graders.marking import deductions_for, late_deduction, mark_criteria
from graders.overrides import restore
from graders.pack import PACKS_DIR, Pack
from graders.results import (
    SubmissionResult,
    TestOutcome,
    ViolationRecord,
    take_percentages,
    total_of,
)
from graders.sandbox import Isolation
from graders.submissions import Submission
from graders.verdict import as_marked

#: Called with each result as it is finished (a progress bar).
Progress = Callable[[SubmissionResult], None]
#: A share's results, or the exception that lost them.
ShareResults = list[SubmissionResult] | BaseException


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


@dataclass
class BatchOutcome:
    """What a batch gave: every row, and what went wrong beyond one student's row."""

    results: list[SubmissionResult]
    isolation: Isolation
    grader_errors: list[str] = field(default_factory=list)
    reused: int = 0
    remarked: int = 0  # of the reused, marked again under this run's due date
    shared: tuple[SharedLines, ...] = ()  # class consensus: lines no bundled starter has

    @property
    def ok(self) -> bool:
        return not self.grader_errors and all(
            r.status in ("graded", "missing") for r in self.results
        )


def mark(
    pack: Pack, submission: Submission, tests: list[TestOutcome],
    violations: list[ViolationRecord], errors: list[str], options: GradeOptions,
) -> SubmissionResult:
    """The student's result from their outcomes and violations (raises on a marking bug)."""
    notes, missing = module_notes(pack, submission, tests, violations)
    violations, errors = [*violations, *notes], [*errors, *missing]
    marks, problems = mark_criteria(pack, tests, violations, public_only=options.public_only)
    tests = as_marked(pack, tests)  # after marking: the marks list the kinds it passes over
    deductions = deductions_for(violations)
    late = late_deduction(pack, submission.submitted_at, submission.due or options.due,
                          total_of(marks, deductions))
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


def remark(pack: Pack, stored: SubmissionResult, submission: Submission,
           options: GradeOptions) -> SubmissionResult | None:
    """``stored`` marked again under this run's due date and the submission's hand-in time,
    or None when its marks do not change. The late rule is the one part of a mark that
    neither the files nor the pack decide: an instructor who moves the due date gets every
    late deduction recomputed without a test being run again. The late rule takes its
    percentage of the grader's own marks; a result whose deductions change gets those marks
    back (the report writer applies the TA's overrides again)."""
    automatic = [replace(mark, earned=mark.earned if mark.automatic is None else mark.automatic)
                 for mark in stored.criteria]
    deductions = deductions_for(stored.violations)
    late = late_deduction(pack, submission.submitted_at, submission.due or options.due,
                          total_of(automatic, deductions))
    deductions += [late] if late else []
    stored_automatic = [replace(deduction) for deduction in stored.deductions]
    take_percentages(automatic, stored_automatic)  # as stored before any TA's override
    if deductions == stored_automatic:
        return None
    restore(stored)
    stored.deductions = deductions
    stored.total = total_of(stored.criteria, deductions)
    return stored


def grading_key(pack: Pack, submission: Submission, options: GradeOptions) -> str:
    """The ONE key a stored result is reused under: anything that could change what the tests
    and rules find is in it (files, intake problems, pack and engine digest with hidden
    inputs, mode, isolation level, the batch's class consensus). Any change regrades. The due
    date and the hand-in time are not: they change only the late deduction, which
    :func:`remark` recomputes on every reuse."""
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


def identify(result: SubmissionResult, found: Found) -> None:
    """Put who the submission is (LMS id, name, e-mail, time and the export's own facts) on
    its result, for the reports and the LMS exports."""
    result.lms_id = found.lms_id or result.student
    result.display_name = found.display_name or result.student
    result.email = found.email
    result.submitted_at = found.submitted_at.isoformat() if found.submitted_at else ""
    result.lms = dict(found.lms)


def missing(pack: Pack, person: Person, options: GradeOptions, name: str,
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


def team_copy(team_result: SubmissionResult, person: Person, name: str, kind: str,
              team: str) -> SubmissionResult:
    """The row of ``person``, who handed in nothing of their own: their team's submission's
    result under their name and ids, and says so (``--teams``). A TA's override is a row's
    own (a handout may mark members apart, on their part in the demo): one of the team's row
    is not this row's."""
    result = deepcopy(team_result)
    result.student = name
    result.lms_id, result.display_name, result.email = (
        person.lms_id, person.display_name or person.lms_id, person.email)
    result.lms = {k: v for k, v in (("sis_id", person.sis_id), ("username", person.username))
                  if v}
    if kind:
        result.lms.update({"roster": kind, "roster_id": person.lms_id})
    # No layout of the team's row: a member's id from the teams file is no LMS's own id, so an
    # LMS export takes this row only by the roster's (without one it refuses, naming it). A
    # member of a group the export itself names is that LMS's own id.
    group = team_result.lms.get("group_layout")
    if group:
        result.lms["layout"] = group
    result.lms.update({"team": team, "graded_with": team_result.student})
    result.overrides = []  # a TA's override of the team's row is that row's
    whose = (f"the {group} group submission this student is a submitter of" if group else
             f"the one submission of team {team} (--teams)")
    result.violations.append(ViolationRecord(
        rule="intake", title=title_of("intake"), file="",
        message=f"Graded with {team_result.student}'s submission: {whose}; this student "
        f"handed in nothing of their own. A TA's change to {team_result.student}'s mark is "
        "not this row's: make it here too where it is the team's."))
    return result


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
