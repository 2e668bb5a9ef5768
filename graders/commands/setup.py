"""`grade setup [ID...]`: the tools and course environments the packs need, under .tools/."""

from __future__ import annotations

import os
import sys

import click

from graders import console
from graders.commands import EXIT_USAGE, register
from graders.pack import discover_packs, get_pack
from graders.pipeline import SETUP_COMMAND
from graders.sandbox import Isolation
from graders.sandbox.isolation import detect_isolation
from graders.tools import setup_tools


@register
@click.command("setup")
@click.argument("assignments", nargs=-1)
@click.option("--force", is_flag=True, help="Rebuild environments that are ready too.")
def command(assignments: tuple[str, ...], force: bool) -> None:
    """Install the tools the packs run on submissions (e.g. python_ta) and each pack's
    [environment] for student code (env_<id>), each in its own environment under .tools/
    (all assignments by default)."""
    packs = [get_pack(a) for a in assignments] or list(discover_packs().values())
    for tool, done in setup_tools(packs, force):
        pins = ", ".join(tool.spec.requirements)
        console.out.print(f"{tool.name} ({pins}): {done} in {tool.home}", markup=False)
    level = detect_isolation()
    if level is Isolation.RLIMITS and not os.environ.get("GRADER_ISOLATION"):
        console.console.print(
            "[red]grade setup: bubblewrap is not usable here, and `grade` refuses to grade "
            f"without it.[/] Install it with: {SETUP_COMMAND}  (in a container, user "
            "namespaces must be allowed too); or grade with `--isolation rlimits`.",
            markup=True,
        )
        sys.exit(EXIT_USAGE)
    console.out.print(f"sandbox: {level.value} ({level.describe})", markup=False)
