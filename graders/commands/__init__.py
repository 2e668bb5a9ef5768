"""More `grade` commands, one module each, found by looking (like the rule registry).

A module here defines ``command``, a :class:`click.Command` whose function calls ONE function
of the engine; :func:`register_all` adds every such command to the ``grade`` group. So a new
command is one new file, and no two features edit the same CLI module.
"""

from __future__ import annotations

import importlib
import pkgutil

import click


def register_all(group: click.Group) -> None:
    """Add the ``command`` of every module of this package to ``group``."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        command = getattr(module, "command", None)
        if not isinstance(command, click.Command):
            raise TypeError(f"{module.__name__} defines no click command named `command`")
        group.add_command(command)
