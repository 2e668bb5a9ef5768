"""What ``run_autograder`` runs on Gradescope: grade one submission, write ``results.json``.

``python -m graders.gradescope_run ID ROOT`` grades ``ROOT/submission`` with pack
``ID``, its time and due date taken from Gradescope's own ``ROOT/submission_metadata.json``
(``created_at``; ``users[].assignment.due_date``, extensions applied, else
``assignment.due_date``), never from the student's files, and writes
``ROOT/results/results.json`` in Gradescope's format: ``score`` (the final mark, deductions
included), ``output``, and ``tests``: one per criterion (name, score, max_score, visible), one
per deduction, and one per grader test with its status and the visibility the pack declares
(``[tests] visibility``: hidden tests show students nothing).
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from datetime import datetime
from pathlib import Path
from typing import Any

from graders import PACKAGE_DIR
from graders.batch import BatchRequest, grade_batch
from graders.feedback.visibility import GRADESCOPE, visibility_of
from graders.intake.base import Found
from graders.intake.gradescope import parse_created
from graders.pack import Pack, get_pack
from graders.results import SubmissionResult, write_atomic
from graders.sandbox.isolation import detect_isolation


def metadata(root: Path) -> dict[str, Any]:
    try:
        data = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _when(text: object) -> datetime | None:
    return parse_created(text) if isinstance(text, str) and text else None


def due_date(meta: dict[str, Any]) -> datetime | None:
    """The due date this submission is late against: each user's own (``users[].assignment``,
    where Gradescope applies the extensions it granted; of a group's, the latest), else the
    assignment's. A student given an extension was charged as late by the assignment's."""
    users = meta.get("users")
    own = [_when(user["assignment"].get("due_date"))
           for user in (users if isinstance(users, list) else [])
           if isinstance(user, dict) and isinstance(user.get("assignment"), dict)]
    if any(own):
        return max(when for when in own if when is not None)
    assignment = meta.get("assignment")
    return _when(assignment.get("due_date")) if isinstance(assignment, dict) else None


def grade(pack: Pack, root: Path) -> SubmissionResult:
    """The result of ``root/submission``: in this container, the container is the sandbox
    when bubblewrap cannot run, so the resource-limits fallback is chosen explicitly."""
    meta = metadata(root)
    users = meta.get("users") or [{}]
    person = users[0] if isinstance(users[0], dict) else {}
    sid = str(person.get("sid") or person.get("id") or "submission")
    found = Found(id=sid, source=root / "submission", lms_id=sid,
                  display_name=str(person.get("name") or sid), email=str(person.get("email") or ""),
                  submitted_at=_when(meta.get("created_at")))
    outcome = grade_batch(BatchRequest(pack=pack, sources=[found], due=due_date(meta),
                                       isolation=detect_isolation(), write_index=False))
    return outcome.results[0]


def gradescope_results(pack: Pack, result: SubmissionResult) -> dict[str, Any]:
    """``result`` in Gradescope's ``results.json`` format."""
    tests: list[dict[str, Any]] = []
    for mark in result.criteria:
        tests.append({"name": mark.title, "score": mark.earned, "max_score": mark.points,
                      "output": "; ".join(mark.notes), "visibility": "visible"})
    left = sum(mark.earned for mark in result.criteria)
    for deduction in result.deductions:  # a mark never goes below 0: nor do the rows' sum
        taken = min(deduction.points, max(left, 0.0))
        left -= taken
        note = "" if taken == deduction.points else (
            f"{deduction.points:g} points by the rules; the mark cannot go below 0, so "
            f"{taken:g} were taken")
        tests.append({"name": f"Deduction: {deduction.reason}", "score": -taken,
                      "max_score": 0, "output": note, "visibility": "visible"})
    for violation in result.violations:
        where = f"{violation.file}:{violation.line}" if violation.line else violation.file
        tests.append({"name": f"Rule: {violation.title}", "status": "failed",
                      "output": f"{where}: {violation.message}", "visibility": "visible"})
    for test in result.tests:
        label = f"{test.name} [{test.case}]" if test.case else test.name
        tests.append({"name": label, "status": "passed" if test.outcome == "passed" else "failed",
                      "output": test.message, "visibility": GRADESCOPE[visibility_of(pack, test)]})
    lines = [f"{result.total:g} / {result.max_total:g}"]
    if result.status != "graded":
        lines.append("Grading was incomplete (a grader error, not your work's fault): your "
                     "instructor will check this mark.")
    return {"score": result.total, "output": "\n".join(lines), "tests": tests,
            "stdout_visibility": "hidden"}


def _close_results(folder: Path) -> None:
    """Gradescope reads ``results/`` when this run ends: no sandbox uid may write there (the
    container may be the only isolation, and a container may leave it open to all)."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        os.chown(folder, 0, 0)
        folder.chmod(0o755)


def main(argv: list[str]) -> int:
    pack_id, root = argv[0], Path(argv[1])
    pack = get_pack(pack_id)
    target = root / "results" / "results.json"
    _close_results(target.parent)
    try:
        data = gradescope_results(pack, grade(pack, root))
        code = 0
    except Exception:  # noqa: BLE001 - Gradescope must still get a results file
        data = {"score": 0, "output": "The autograder failed (not your fault); your instructor "
                "has been told.", "tests": [], "stdout_visibility": "hidden"}
        print(traceback.format_exc(), file=sys.stderr)
        code = 1
    write_atomic(target, json.dumps(data, indent=1))
    print(f"harness: {PACKAGE_DIR}")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
