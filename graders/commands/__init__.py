"""The `grade` commands, one module each, each registering itself (``@register``).

A module here registers a :class:`click.Command` whose function calls ONE function of the
engine; :func:`register_all` adds every registered command to the ``grade`` group
(:class:`graders.registry.Registry`, the idiom of rules, layouts and export formats too). So a
new command is one new file, and no two features edit the same CLI module.
"""

from __future__ import annotations

import click

from graders.registry import Registry

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

_COMMANDS: Registry[click.Command] = Registry(__name__, "command", lambda c: c.name or "")
#: Decorator (outermost) adding a click command to ``grade``.
register = _COMMANDS.register


def register_all(group: click.Group) -> None:
    """Add every command of this package to ``group``."""
    for command in _COMMANDS.all().values():
        group.add_command(command)
