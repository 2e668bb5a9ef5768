"""`grade kit ID [--out DIR]`: the starter kit with its pre-check, as a zip for students."""

from __future__ import annotations

from pathlib import Path

import click

from graders.commands import register
from graders.kit.builder import build_kit
from graders.pack import get_pack


@register
@click.command("kit")
@click.argument("assignment")
@click.option("--out", "out", default="kits", show_default=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Folder the zip is written to.")
def command(assignment: str, out: Path) -> None:
    """Build OUT/<ID>-kit.zip: starter files, public data, README.txt, requirements.txt and a
    pre-check students run with python3 and public packages only; prints the zip's path."""
    click.echo(build_kit(get_pack(assignment), out))
