"""`grade export ID --format NAME`: the LMS's grade-import CSV and a feedback zip.

Exit 0 when written; 1 when the export would lose marks (all rows 0 or empty, a graded student
left out, two LMSs' ids mixed, one id twice: each reason printed; ``--force`` writes it
anyway); 2 for a usage error (nothing of the assignment in the report, no grade column).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from graders import console
from graders.commands import register
from graders.export import ExportOptions, Written, export, formats
from graders.export.guard import Refused
from graders.pack import get_pack, project_root

EXIT_REFUSED = 1


@register
@click.command("export")
@click.argument("assignment", required=False)
@click.option("--format", "fmt", required=True, type=click.Choice(sorted(formats())),
              help="The LMS to write for.")
@click.option("--report", type=click.Path(file_okay=False, path_type=Path),
              help="The report folder `grade` wrote [reports/<id>].")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Where to write [the report folder].")
@click.option("--column", help="The gradebook's grade column or item: its header, name or id "
              "[the --roster gradebook's column that matches the assignment].")
@click.option("--force", is_flag=True,
              help="Write the files even when they would lose marks (each reason is printed).")
@click.option("--term", is_flag=True, help="Every assignment in the gradebook (no ASSIGNMENT): "
              "OUT/<id>/ for each [reports/term-<format>/].")
@click.option("--reports", type=click.Path(file_okay=False, path_type=Path),
              help="With --term: the term's reports folder [reports/].")
@click.option("--gradebook", "url", metavar="URL",
              help="With --term: the gradebook [$GRADERS_GRADEBOOK, else the reports folder's].")
def command(assignment: str | None, fmt: str, report: Path | None, out: Path | None,
            column: str | None, force: bool, term: bool, reports: Path | None,
            url: str | None) -> None:
    """Write the LMS's grade-import CSV and the students' feedback pages (zip) from the
    results `grade` wrote (with --term: of every assignment, from the gradebook)."""
    if term:
        if assignment or column or report:
            raise click.UsageError("--term exports every assignment: give no ASSIGNMENT, "
                                   "--column or --report")
        _term(fmt, reports, out, url, force)
        return
    if not assignment:
        raise click.UsageError("name the ASSIGNMENT to export, or pass --term")
    pack = get_pack(assignment)
    report = report or project_root() / "reports" / pack.id
    try:
        written = export(pack, report, out or report, fmt,
                         ExportOptions(column=column, force=force))
    except Refused as refused:
        _refused(fmt, refused)
        sys.exit(EXIT_REFUSED)
    _written(fmt, written)


def _refused(fmt: str, refused: Refused, label: str = "") -> None:
    console.console.print(f"export: {label}nothing written; the {fmt} export would lose marks:",
                          markup=False, style="red")
    for problem in refused.problems:
        console.console.print(f"  - {problem}", markup=False, style="red", soft_wrap=True)
    console.console.print("export: fix the cause, or pass --force to write it anyway",
                          markup=False)


def _written(fmt: str, written: Written) -> None:
    for note in written.notes:
        console.console.print(f"export: {note}", markup=False, style="yellow")
    console.out.print(f"{formats()[fmt].title}: {written.grades}", markup=False)
    console.out.print(f"feedback files: {written.feedback}", markup=False)


def _term(fmt: str, reports: Path | None, out: Path | None, url: str | None,
          force: bool) -> None:
    """Export every assignment of the gradebook; exit 1 when one was refused."""
    from graders import gradebook
    from graders.gradebook.term_export import export_term

    done = export_term(gradebook.Where(url, gradebook.reports_root(reports)), out, fmt, force)
    for assignment, written in done.written.items():
        console.out.print(f"{assignment}:", markup=False)
        _written(fmt, written)
    for assignment, refused in done.refused.items():
        _refused(fmt, refused, f"{assignment}: ")
    if done.refused:
        sys.exit(EXIT_REFUSED)
