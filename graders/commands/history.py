"""`grade history ID STUDENT`: each recorded run's total for the student, what produced it
(run, code, pack and grader digests) and what changed, on the console and as a page."""

from __future__ import annotations

from pathlib import Path

import click

from graders import console, gradebook
from graders.commands import register
from graders.commands.override import find_student
from graders.gradebook.actions import student_history
from graders.pack import get_pack


@register
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
    where = gradebook.Where(url, gradebook.reports_root(out))
    found, page = student_history(where, get_pack(assignment).id,
                                  lambda people: find_student(people, student).student)
    for line in found.lines():
        console.out.print(console.printable(line), markup=False, soft_wrap=True)
    console.out.print(f"page: {page}", markup=False, soft_wrap=True)
