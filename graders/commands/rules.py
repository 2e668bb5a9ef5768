"""`grade rules`: the rule checks a pack can declare."""

from __future__ import annotations

import click

from graders import console
from graders.commands import register
from graders.rules import registry
from graders.rules.base import messages_for


@register
@click.command("rules")
def command() -> None:
    """List the rule checks a pack can declare."""
    for name in sorted(registry()):
        console.out.print(f"{name}: {messages_for(name).get('title', '')}", markup=False)
