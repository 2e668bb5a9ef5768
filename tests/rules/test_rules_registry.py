"""The rule registry and the wording data: every rule is found and has all its messages."""

from __future__ import annotations

import ast
import inspect
import pkgutil
import re
import string
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel
from rules_testkit import ALTNIM_OPTIONS, EXAMPLES, example, run_altnim

import graders.rules
from graders.rules import registry
from graders.rules.base import Rule, all_messages, messages_for

MY_RULES = sorted(ALTNIM_OPTIONS)
RULE_MODULES = sorted(
    info.name
    for info in pkgutil.iter_modules(graders.rules.__path__)
    if not info.name.startswith("_") and info.name != "base"
)


def module_of(rule: type[Rule]) -> str:
    return rule.__module__.rsplit(".", 1)[-1]


def test_registry_finds_a_rule_in_every_module() -> None:
    found = {module_of(rule) for rule in registry().values()}
    assert set(RULE_MODULES) <= found
    assert set(MY_RULES) <= set(registry())


def test_each_module_defines_one_rule() -> None:
    modules = [module_of(rule) for rule in registry().values()]
    assert sorted(modules) == sorted(set(modules))


@pytest.mark.parametrize("name", sorted(registry()))
def test_every_rule_has_a_wording_table(name: str) -> None:
    table = messages_for(name)
    assert isinstance(table["title"], str) and table["title"]
    assert isinstance(table["fix"], str) and table["fix"]
    assert table["messages"] and all(isinstance(t, str) for t in table["messages"].values())


def test_no_wording_table_without_a_rule() -> None:
    assert set(all_messages()) <= set(registry())


@pytest.mark.parametrize("name", sorted(registry()))
def test_options_document_themselves(name: str) -> None:
    options: type[BaseModel] = registry()[name].Options
    assert options.model_config.get("extra") == "forbid"
    for key, info in options.model_fields.items():
        assert info.description, f"{name}: option {key!r} has no description"


# --- message keys used by the code against the keys in messages.toml -------------------


def violation_calls(rule: type[Rule]) -> list[ast.Call]:
    """Every ``self.violation(...)`` call in the rule's module."""
    tree = ast.parse(inspect.getsource(sys.modules[rule.__module__]))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "violation"
        and len(node.args) >= 2
    ]


def key_pattern(node: ast.expr) -> re.Pattern[str] | None:
    """A constant key as itself, an f-string key with each ``{...}`` as a wildcard.

    ``None`` for a key held in a variable: those are checked by running the rules.
    """
    if isinstance(node, ast.Constant):
        return re.compile(re.escape(str(node.value)))
    if not isinstance(node, ast.JoinedStr):
        return None
    parts = [
        re.escape(str(v.value)) if isinstance(v, ast.Constant) else "[a-z-]+" for v in node.values
    ]
    return re.compile("".join(parts))


def fields_of(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("name", sorted(registry()))
def test_literal_message_keys_are_defined_and_get_their_fields(name: str) -> None:
    rule = registry()[name]
    templates = messages_for(name)["messages"]
    for call in violation_calls(rule):
        pattern = key_pattern(call.args[1])
        if pattern is None:
            continue
        keys = [key for key in templates if pattern.fullmatch(key)]
        assert keys, f"{name}: no message matches {ast.unparse(call.args[1])}"
        if any(k.arg is None for k in call.keywords):
            continue  # **fields: checked by running the rule
        given = {k.arg for k in call.keywords if k.arg} | {"file", "line"}
        for key in keys:
            missing = fields_of(templates[key]) - given
            assert not missing, f"{name}.{key} uses {missing}, not passed at line {call.lineno}"


def strings_in(module: str) -> set[str]:
    tree = ast.parse(inspect.getsource(sys.modules[module]))
    return {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


@pytest.mark.parametrize("name", sorted(registry()))
def test_every_defined_message_key_is_used(name: str) -> None:
    """Each key appears as a string in the rule's module (or a helper) or fits an f-string."""
    rule = registry()[name]
    helpers = [m for m in sys.modules if m.startswith("graders.rules._")]
    known = set().union(*(strings_in(m) for m in [rule.__module__, *helpers]))
    patterns = [key_pattern(call.args[1]) for call in violation_calls(rule)]
    for key in messages_for(name)["messages"]:
        used = key in known or any(p and p.fullmatch(key) for p in patterns)
        assert used, f"{name}: message {key!r} is never used"


# --- running the rules on the examples ---------------------------------------------------

SOURCES = sorted(p.name for p in EXAMPLES.glob("*.py")) + ["altnim_template_example.template"]


def parses(source: str) -> bool:
    try:
        ast.parse(source)
    except SyntaxError:
        return False
    return True


@pytest.mark.parametrize("name", MY_RULES)
def test_rules_run_on_every_example_and_the_examples_cover_them(name: str) -> None:
    """No example makes a rule fail; the examples named after a rule trigger it."""
    prefix = name.replace("-", "_")
    triggered = False
    for file in SOURCES:
        source = example(file)
        if registry()[name].needs_tree and not parses(source):
            continue
        found = run_altnim(name, source)
        assert all(v.rule == name and v.message for v in found)
        if file.startswith(prefix):
            assert found, f"{file} should trigger {name}"
            triggered = True
    assert triggered or name in {"template-functions", "template-comments"}


@pytest.mark.parametrize("name", MY_RULES)
def test_clean_solution_passes_every_rule(name: str) -> None:
    assert run_altnim(name, example("clean_altnim_solution.py")) == []


def test_bare_template_breaks_only_the_header_rule() -> None:
    source = example("altnim_template_example.template")
    broken = {name for name in MY_RULES if run_altnim(name, source)}
    assert broken == {"header-block"}


def test_examples_folder_is_excluded_from_lint() -> None:
    assert 'extend-exclude = ["*.py"]' in (EXAMPLES / "ruff.toml").read_text()
    assert Path(EXAMPLES / "syntax_error_missing_colon.py").exists()
