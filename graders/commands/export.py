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
from graders.export import ExportOptions, export, formats
from graders.export.guard import Refused
from graders.packs import get_pack, project_root

EXIT_REFUSED = 1


@click.command("export")
@click.argument("assignment")
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
def command(assignment: str, fmt: str, report: Path | None, out: Path | None,
            column: str | None, force: bool) -> None:
    """Write the LMS's grade-import CSV and the students' feedback pages (zip) from the
    results `grade` wrote."""
    pack = get_pack(assignment)
    report = report or project_root() / "reports" / pack.id
    try:
        written = export(pack, report, out or report, fmt,
                         ExportOptions(column=column, force=force))
    except Refused as refused:
        console.console.print(f"export: nothing written; the {fmt} export would lose marks:",
                              markup=False, style="red")
        for problem in refused.problems:
            console.console.print(f"  - {problem}", markup=False, style="red", soft_wrap=True)
        console.console.print("export: fix the cause, or pass --force to write it anyway",
                              markup=False)
        sys.exit(EXIT_REFUSED)
    for note in written.notes:
        console.console.print(f"export: {note}", markup=False, style="yellow")
    console.out.print(f"{formats()[fmt].title}: {written.grades}", markup=False)
    console.out.print(f"feedback files: {written.feedback}", markup=False)
