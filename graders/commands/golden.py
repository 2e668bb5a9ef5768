"""`grade golden [ID...]`: regenerate (or, with --check, only check) the golden files."""

from __future__ import annotations

import sys

import click

from graders import console
from graders.commands import EXIT_FAILED, EXIT_OK, register
from graders.golden import stale_golden, write_golden
from graders.pack import discover_packs, get_pack


@register
@click.command("golden")
@click.argument("assignments", nargs=-1)
@click.option("--check", "only_check", is_flag=True, help="Only report stale golden files.")
def command(assignments: tuple[str, ...], only_check: bool) -> None:
    """Regenerate golden files from the reference solutions (all assignments by default)."""
    packs = [get_pack(a) for a in assignments] or list(discover_packs().values())
    stale = []
    for pack in packs:
        paths = stale_golden(pack) if only_check else write_golden(pack)
        verb = "stale" if only_check else "written"
        for path in paths:
            console.out.print(f"{pack.id}: {verb} {path}")
        stale += paths
    if not stale:
        console.out.print("All golden files are up to date.")
    sys.exit(EXIT_FAILED if only_check and stale else EXIT_OK)
