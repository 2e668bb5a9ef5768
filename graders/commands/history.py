"""`grade history ID STUDENT`: each recorded run's total for the student, what produced it
(run, code, pack and grader digests) and what changed, on the console and as a page."""

from __future__ import annotations

from pathlib import Path

import click

from graders import console, gradebook
from graders.commands.override import find_student
from graders.gradebook.pages import history_of, write_history
from graders.gradebook.schema import Run
from graders.packs import get_pack
from graders.results import SubmissionResult


@click.command("history")
@click.argument("assignment")
@click.argument("student")  # the id reported under, the LMS id, or the name
@click.option("--reports", "out", type=click.Path(file_okay=False, path_type=Path),
              help="The term's reports folder (the gradebook's, beside <id>/) [reports/].")
@click.option("--gradebook", "url", metavar="URL",
              help="The gradebook [$GRADERS_GRADEBOOK, else gradebook.sqlite in --reports].")
def command(assignment: str, student: str, out: Path | None, url: str | None) -> None:
    """Show every run's mark of STUDENT in ASSIGNMENT and why it moved; writes
    history/ASSIGNMENT/STUDENT.html beside the term page."""
    pack = get_pack(assignment)
    reports = gradebook.reports_root(out)
    book = gradebook.open_gradebook(url, reports)
    try:
        runs = book.runs(pack.id)
        if not runs:
            raise click.UsageError(f"the gradebook holds no run of {pack.id}: grade it first")
        name = find_student(_everyone(runs), student).student
        found = history_of(book, pack.id, name)
        for line in found.lines():
            console.out.print(console.printable(line), markup=False, soft_wrap=True)
        page = write_history(None, reports, found)
        console.out.print(f"page: {page}", markup=False, soft_wrap=True)
    finally:
        book.close()


def _everyone(runs: list[Run]) -> list[SubmissionResult]:
    """Each student ever graded in ``runs``, as :func:`find_student` looks them up (by the
    id the report used, the LMS id or the name), latest facts first."""
    seen: dict[str, SubmissionResult] = {}
    for run in reversed(runs):
        for row in run.results:
            if row.name not in seen:
                seen[row.name] = SubmissionResult(
                    student=row.name, assignment=run.assignment_id, assignment_title="",
                    status="graded", isolation="", lms_id=row.student.lms_id,
                    display_name=row.student.display_name)
    return list(seen.values())
