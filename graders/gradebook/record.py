"""Record a grading run: one :class:`~graders.gradebook.schema.Run`, one result per student
(its JSON kept whole, once per distinct content), every criterion and test outcome."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from graders import PACKAGE_DIR
from graders.gradebook import schema
from graders.gradebook.store import Gradebook, RunFacts, ensure_assignment, ensure_student
from graders.outcomes import NEVER_A_MARK
from graders.overrides import code_digest
from graders.pack import PACKS_DIR, Pack
from graders.results import SubmissionResult

LATE = "late by "  # how graders.marking words the late rule's deduction


def harness_digest() -> str:
    """The engine's own files (every pack left out): what "the grader changed" means."""
    hasher = hashlib.sha256()
    files = sorted(p for p in PACKAGE_DIR.rglob("*") if p.is_file() and PACKS_DIR not in p.parents
                   and "__pycache__" not in p.parts)
    for path in files:
        hasher.update(path.relative_to(PACKAGE_DIR).as_posix().encode() + b"\0")
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


def pack_digest(pack: Pack) -> str:
    """The pack's own files (tests, data, templates, golden files, reference, hidden inputs;
    never the engine): what "the pack changed" means."""
    hasher = hashlib.sha256()
    trees = [pack.dir, pack.templates_dir, pack.golden_dir, pack.reference_dir,
             pack.fixtures_dir / "inputs"]
    for index, tree in enumerate(trees):
        files = sorted(p for p in tree.rglob("*") if p.is_file()) if tree.is_dir() else []
        for path in files:
            if "__pycache__" in path.parts or path.name in NEVER_A_MARK:
                continue
            hasher.update(f"{index}:{path.relative_to(tree).as_posix()}".encode() + b"\0")
            hasher.update(path.read_bytes())
    return hasher.hexdigest()


def times_digest(results: Iterable[SubmissionResult]) -> str:
    """The digest of every student's submission time."""
    pairs = sorted((r.student, r.submitted_at) for r in results)
    return hashlib.sha256(json.dumps(pairs).encode()).hexdigest()


def facts(pack: Pack, results: list[SubmissionResult], due: datetime | None,
          options: Mapping[str, Any], report_dir: str) -> RunFacts:
    """The facts of a run that graded ``results`` now."""
    return RunFacts(at=datetime.now(UTC).isoformat(timespec="seconds"),
                    harness_digest=harness_digest(), pack_digest=pack_digest(pack),
                    options=dict(options), due=due.isoformat() if due else "",
                    times_digest=times_digest(results), report_dir=report_dir)


def late_penalty(result: SubmissionResult) -> float:
    """The points the late rule took."""
    return sum(d.points for d in result.deductions if d.reason.startswith(LATE))


def in_force(result: SubmissionResult) -> str:
    """The overrides in force on ``result``, one per line (compared between runs)."""
    return "\n".join(f"{o.criterion} {o.points:g} by {o.by} at {o.at}"
                     for o in result.overrides if not o.superseded)


def record_run(book: Gradebook, pack: Pack, results: list[SubmissionResult],
               run_facts: RunFacts) -> int:
    """Add a run of ``pack`` with ``results`` (final marks, overrides applied); its id."""
    with book.session() as session:
        ensure_assignment(session, pack.id, pack.title, run_facts.pack_digest)
        run = schema.Run(assignment_id=pack.id, at=run_facts.at,
                         harness_digest=run_facts.harness_digest,
                         pack_digest=run_facts.pack_digest,
                         options=json.dumps(run_facts.options, sort_keys=True, default=str),
                         due=run_facts.due, times_digest=run_facts.times_digest,
                         report_dir=run_facts.report_dir)
        session.add(run)
        session.flush()
        for result in results:
            session.add(_result_row(session, run.id, result))
        session.flush()
        return run.id


def _result_row(session: Any, run_id: int, result: SubmissionResult) -> schema.Result:
    body = result.to_json()
    digest = hashlib.sha256(body.encode()).hexdigest()
    if session.get(schema.Blob, digest) is None:
        session.add(schema.Blob(digest=digest, body=body))
        session.flush()
    person = ensure_student(session, result.lms_id or result.student,
                            result.lms_id, result.display_name or result.student)
    row = schema.Result(
        run_id=run_id, student_id=person.id, name=result.student, status=result.status,
        total=result.total, max_total=result.max_total,
        automatic_total=result.total if result.automatic_total is None
        else result.automatic_total,
        late_penalty=late_penalty(result), code_digest=code_digest(result.files),
        submitted_at=result.submitted_at, own_due=result.lms.get("due", ""),
        overrides=in_force(result), blob_digest=digest,
    )
    row.marks = [schema.Mark(criterion=m.id, points=m.points, earned=m.earned,
                             automatic=m.earned if m.automatic is None else m.automatic)
                 for m in result.criteria]
    session.add(row)
    session.flush()
    session.add_all(schema.Outcome(result_id=row.id, test=t.name, case=t.case,
                                   outcome=t.outcome, causes=json.dumps(t.causes))
                    for t in result.tests)
    return row
