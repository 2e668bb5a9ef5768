"""The export's guard: nothing is lost on the way back to the LMS.

:func:`problems` names each way an export would lose or misplace marks: a graded student
with no id this LMS matches rows by (left out, or written under an id the LMS does not know),
ids of another LMS (Canvas user ids in a Moodle worksheet), one id on two rows (the LMS keeps
one of them), two students' feedback under one name in the zip, or no row holding a mark at
all (every row 0 or empty), or a mark the grader could not finish (a grader error would
reach the LMS as the student's mark). ``grade export`` stops on any of them with exit 1 and
says why; ``--force`` writes the files anyway.
"""

from __future__ import annotations

from collections import Counter

from graders.export import LmsFormat, lms_fact
from graders.results import SubmissionResult

LMS_SPACES = frozenset({"moodle", "canvas", "brightspace", "gradescope", "markus"})
SHOWN = 5  # names listed per problem


class Refused(Exception):
    """The export would lose marks: what, in ``problems``."""

    def __init__(self, fmt: str, problems: list[str]) -> None:
        super().__init__(f"{fmt}: {'; '.join(problems)}")
        self.fmt = fmt
        self.problems = problems


def problems(chosen: LmsFormat, results: list[SubmissionResult],
             body: list[list[str]]) -> list[str]:
    """Why writing ``body`` (the rows of ``results``) would lose marks; empty when safe."""
    found = _without_ids(chosen, results)
    broken = [r.student for r in results if r.status == "grader-error"]
    if broken:
        found.append(f"{len(broken)} student(s) have no final mark: grading failed for them "
                     f"(a grader error, not their work: {_names(broken)}); regrade them first")
    keys = Counter(key for key in map(chosen.key, results) if key)
    for key, count in sorted(keys.items()):
        if count > 1:
            students = [r.student for r in results if chosen.key(r) == key]
            found.append(f"the {chosen.title} id {key} is on {count} rows ({_names(students)}): "
                         "the LMS would keep one of them")
    names = Counter(chosen.feedback_name(r) for r in results if r.status != "missing")
    for name, count in sorted(names.items()):
        if count > 1:
            found.append(f"{count} students' feedback would be `{name}` in the zip")
    marks = [cell for row in body for cell in row[chosen.mark_cells]]
    if not any(_earned(cell) for cell in marks):
        found.append(f"every one of the {len(body)} row(s) would be 0 or empty")
    return found


def _without_ids(chosen: LmsFormat, results: list[SubmissionResult]) -> list[str]:
    foreign: dict[str, list[str]] = {}
    left: list[str] = []
    for result in results:
        if chosen.key(result) is not None:
            continue
        space = lms_fact(result, "roster") or lms_fact(result, "layout")
        if space in LMS_SPACES - chosen.spaces:
            foreign.setdefault(space, []).append(result.student)
        elif result.status != "missing":
            left.append(result.student)
    found = [f"{len(students)} row(s) carry {space} ids ({_names(students)}), not "
             f"{chosen.title} ids: the export would mix two LMSs' ids (export as {space}, or "
             f"grade with the {chosen.name} gradebook as --roster)"
             for space, students in sorted(foreign.items())]
    if left:
        found.append(f"{len(left)} graded student(s) have no {chosen.title} id and would be "
                     f"left out or misplaced ({_names(left)}): grade with the LMS's gradebook "
                     "as --roster")
    return found


def _names(students: list[str]) -> str:
    more = f" and {len(students) - SHOWN} more" if len(students) > SHOWN else ""
    return ", ".join(students[:SHOWN]) + more


def _earned(cell: str) -> bool:
    try:
        return float(cell) != 0
    except ValueError:
        return False
