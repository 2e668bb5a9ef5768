"""`grade layouts`: the submission layouts `grade` reads, each with an example path."""

from __future__ import annotations

import click

from graders import console
from graders.commands import register
from graders.intake import layouts


@register
@click.command("layouts")
def command() -> None:
    """List the layouts of submissions `grade` reads (detected, or `grade --layout NAME`)."""
    for layout in layouts().values():
        console.out.print(f"{layout.name}: {layout.title}", markup=False)
        console.out.print(f"    e.g. {layout.example}", markup=False, soft_wrap=True)
