"""`grade gradescope ID --out DIR`: the autograder zip Gradescope runs this pack from."""

from __future__ import annotations

from pathlib import Path

import click

from graders import console
from graders.commands import register
from graders.export.autograder import build_bundle
from graders.pack import get_pack


@register
@click.command("gradescope")
@click.argument("assignment")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Folder to write <id>-gradescope.zip into.")
def command(assignment: str, out: Path) -> None:
    """Write the Gradescope autograder zip (setup.sh, run_autograder, the harness and the
    pack) for ASSIGNMENT."""
    path = build_bundle(get_pack(assignment), out)
    console.out.print(f"Gradescope autograder: {path}", markup=False)
