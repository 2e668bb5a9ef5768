"""Rule registry: every module in this package defines one rule and registers it.

Rules are found by importing the package's modules, not from a hand-kept list.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from graders.rules.base import Rule, RuleContext, Violation

_REGISTRY: dict[str, type[Rule]] = {}


def register(rule_cls: type[Rule]) -> type[Rule]:
    """Class decorator adding a rule to the registry under its ``name``."""
    if rule_cls.name in _REGISTRY and _REGISTRY[rule_cls.name] is not rule_cls:
        raise ValueError(f"two rules are named {rule_cls.name!r}")
    _REGISTRY[rule_cls.name] = rule_cls
    return rule_cls


@cache
def _discover() -> None:
    for info in pkgutil.iter_modules(__path__):
        if info.name not in {"base"}:
            importlib.import_module(f"{__name__}.{info.name}")


def registry() -> dict[str, type[Rule]]:
    """All known rules by name."""
    _discover()
    return dict(_REGISTRY)


def get_rule(name: str) -> type[Rule]:
    rules = registry()
    if name not in rules:
        known = ", ".join(sorted(rules))
        raise KeyError(f"unknown rule {name!r}; known rules: {known}")
    return rules[name]


__all__ = ["Rule", "RuleContext", "Violation", "get_rule", "register", "registry"]
