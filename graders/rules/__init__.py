"""Rule registry: every module in this package defines one rule and registers it.

Rules are found by importing the package's modules, not from a hand-kept list
(:class:`graders.registry.Registry`, the idiom of every plug-in).
"""

from __future__ import annotations

from graders.registry import Registry
from graders.rules.base import Rule, RuleContext, Violation

_RULES: Registry[type[Rule]] = Registry(__name__, "rule", lambda rule: rule.name)
#: Class decorator adding a rule to the registry under its ``name``.
register = _RULES.register


def registry() -> dict[str, type[Rule]]:
    """All known rules by name."""
    return _RULES.all()


def get_rule(name: str) -> type[Rule]:
    """The rule ``name`` (KeyError naming the known rules)."""
    return _RULES.get(name)


__all__ = ["Rule", "RuleContext", "Violation", "get_rule", "register", "registry"]
