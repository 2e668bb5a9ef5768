"""`grade export ID --format NAME`: the LMS's grade-import CSV and a feedback zip."""

from __future__ import annotations

from pathlib import Path

import click

from graders import console
from graders.export import ExportOptions, export, formats
from graders.packs import get_pack, project_root


@click.command("export")
@click.argument("assignment")
@click.option("--format", "fmt", required=True, type=click.Choice(sorted(formats())),
              help="The LMS to write for.")
@click.option("--report", type=click.Path(file_okay=False, path_type=Path),
              help="The report folder `grade` wrote [reports/<id>].")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Where to write [the report folder].")
@click.option("--column", help="The LMS's name of the grade column or item [the title].")
def command(assignment: str, fmt: str, report: Path | None, out: Path | None,
            column: str | None) -> None:
    """Write the LMS's grade-import CSV and the students' feedback pages (zip) from the
    results `grade` wrote."""
    pack = get_pack(assignment)
    report = report or project_root() / "reports" / pack.id
    written = export(pack, report, out or report, fmt, ExportOptions(column=column))
    for note in written.notes:
        console.console.print(f"export: {note}", markup=False, style="yellow")
    console.out.print(f"{formats()[fmt].title}: {written.grades}", markup=False)
    console.out.print(f"feedback files: {written.feedback}", markup=False)
