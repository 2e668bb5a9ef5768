"""`grade gradebook`: the term page (``reports/index.html``: a row per student, a column per
assignment), every student's history page, and each assignment's pages rebuilt from the
gradebook when its folder is gone (``--rebuild``: all of them)."""

from __future__ import annotations

from pathlib import Path

import click

from graders import console, gradebook
from graders.commands import register
from graders.gradebook.actions import refresh


@register
@click.command("gradebook")
@click.option("--reports", "out", type=click.Path(file_okay=False, path_type=Path),
              help="The term's reports folder (the gradebook's, beside <id>/) [reports/].")
@click.option("--gradebook", "url", metavar="URL",
              help="The gradebook [$GRADERS_GRADEBOOK, else gradebook.sqlite in --reports].")
@click.option("--rebuild", "everything", is_flag=True,
              help="Write every assignment's pages again from the gradebook, not only the "
              "missing ones.")
@click.option("--import-overrides", "import_from", type=click.Path(dir_okay=False,
              exists=True, path_type=Path), metavar="FILE",
              help="Record an overrides.toml's entries (with --assignment) first.")
@click.option("--assignment", "-a", help="The assignment --import-overrides is for.")
def command(out: Path | None, url: str | None, everything: bool, import_from: Path | None,
            assignment: str | None) -> None:
    """Write the term page from the gradebook (and any assignment's missing pages)."""
    if import_from is not None and not assignment:
        raise click.UsageError("--import-overrides needs --assignment ID")
    imported = (assignment, import_from) if import_from is not None and assignment else None
    for line in refresh(gradebook.Where(url, gradebook.reports_root(out)),
                        everything=everything, imported=imported):
        console.out.print(console.printable(line), markup=False, soft_wrap=True)
