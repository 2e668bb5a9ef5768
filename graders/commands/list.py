"""`grade list`: the assignments (packs) this harness knows, with their mutation scores."""

from __future__ import annotations

import click

from graders import console
from graders.commands import register
from graders.pack import discover_packs


@register
@click.command("list")
def command() -> None:
    """List the assignments (packs) this harness knows, each with its recorded mutation
    score (`grade selfcheck ID --mutants --record`)."""
    from graders.mutation.equivalents import list_label

    for pack in discover_packs().values():
        console.out.print(f"{pack.id}: {pack.title} ({list_label(pack)})", markup=False)
