"""Rule ``class-definition``: no new classes anywhere."""

from __future__ import annotations

from rules_testkit import example, lines, run_rule


def test_module_level_and_nested_classes() -> None:
    found = run_rule("class-definition", example("class_definition_nested.py"))
    assert [v.rule for v in found] == ["class-definition"] * 2
    assert lines(found) == [4, 9]
    assert "`class MyState` defines a new class" in found[0].message
    assert "`class Node`" in found[1].message
    assert "inside a function or block" in found[1].message
    assert found[0].source_line == "class MyState(State):"


def test_allowed_names() -> None:
    found = run_rule(
        "class-definition", example("class_definition_nested.py"), {"allowed": ["Node"]}
    )
    assert lines(found) == [4]


def test_class_inside_if_block_is_found() -> None:
    [violation] = run_rule("class-definition", "if True:\n    class Hidden:\n        pass\n")
    assert violation.line == 2


def test_clean_solution_passes() -> None:
    assert run_rule("class-definition", example("clean_altnim_solution.py")) == []
