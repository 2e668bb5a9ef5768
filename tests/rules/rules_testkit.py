"""Helpers for the rule tests: run one rule on a source, and the altNim settings used here."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from graders.rules import get_rule
from graders.rules.base import RuleContext, Violation

EXAMPLES = Path(__file__).with_name("examples")
ALTNIM_FILE = "myAltNimFunctions.py"
CLASSES_FILE = "myAltNimClasses.py"
TEMPLATE_NAME = "altnim_template_example.template"

# The options an altNim pack would declare for each rule.
ALTNIM_OPTIONS: dict[str, dict[str, Any]] = {
    "syntax-error": {},
    "forbidden-import": {"required": ["from myAltNimClasses import *"]},
    "module-global": {},
    "class-definition": {},
    "template-functions": {},
    "template-comments": {"check_module_comments": True},
    "attribute-access": {"classes_file": CLASSES_FILE},
    "header-block": {
        "fields": ["Script File Name", "Student Name", "Login Name", "MUN #"],
        "first_line_pattern": "^#{20,}$",
    },
}


def example(name: str) -> str:
    """Text of ``tests/rules/examples/<name>``."""
    return (EXAMPLES / name).read_text(encoding="utf-8")


def template() -> str:
    """The fake altNim template the template rules compare against."""
    return example(TEMPLATE_NAME)


def run_rule(
    name: str,
    source: str,
    options: Mapping[str, Any] | None = None,
    *,
    template: str | None = None,
    locked: Mapping[str, str] | None = None,
    file: str = ALTNIM_FILE,
) -> list[Violation]:
    """Run rule ``name`` the way the engine does: tree rules only get parsed sources."""
    rule = get_rule(name)(options)
    tree = ast.parse(source) if rule.needs_tree else None
    ctx = RuleContext(file, source, tree, template=template, locked=dict(locked or {}))
    return list(rule.check(ctx))


def run_altnim(name: str, source: str, **overrides: Any) -> list[Violation]:
    """Run rule ``name`` with the altNim options, template and locked classes file."""
    options = {**ALTNIM_OPTIONS[name], **overrides}
    locked = {CLASSES_FILE: example("altnim_classes_example.py")}
    return run_rule(name, source, options, template=template(), locked=locked)


def lines(violations: list[Violation]) -> list[int | None]:
    """The line of each violation, in order."""
    return [v.line for v in violations]
