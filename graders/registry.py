"""One way to plug in: every module of a plug-in package registers what it defines.

As python_ta's checkers do, a rule, an intake layout, an export format or a ``grade`` command
is one module that decorates what it adds (``@register``); the package's :class:`Registry`
finds them by importing each module of the package once, never from a hand-kept list. A module
that registers nothing (a shared base, a helper) is simply imported.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """The plug-ins of one package, by name."""

    def __init__(self, package: str, kind: str, name_of: Callable[[T], str]) -> None:
        self.package, self.kind, self._name_of = package, kind, name_of
        self._items: dict[str, T] = {}
        self._found = False

    def register(self, item: T) -> T:
        """Decorator: add ``item`` under its name (a second item of one name is a bug)."""
        name = self._name_of(item)
        if self._items.get(name, item) is not item:
            raise ValueError(f"two {self.kind}s are named {name!r}")
        self._items[name] = item
        return item

    def all(self) -> dict[str, T]:
        """Every registered item by name, in name order (each module imported once)."""
        if not self._found:
            package = importlib.import_module(self.package)
            for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
                importlib.import_module(f"{self.package}.{info.name}")
            self._found = True
        return dict(sorted(self._items.items()))

    def get(self, name: str) -> T:
        """The item ``name``; KeyError naming every known one."""
        known = self.all()
        if name not in known:
            raise KeyError(f"unknown {self.kind} {name!r}; known {self.kind}s: "
                           + ", ".join(known))
        return known[name]
