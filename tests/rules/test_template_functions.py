"""Rule ``template-functions``: the same functions as the template, same parameter lists."""

from __future__ import annotations

import pytest
from rules_testkit import example, lines, run_altnim, run_rule

from graders.errors import GraderError

CLEAN = example("clean_altnim_solution.py")
GAME = "class Game:\n    def {first}:\n        pass\n\n    def {second}:\n        pass\n"


def test_clean_solution_passes() -> None:
    assert run_altnim("template-functions", CLEAN) == []


def test_bare_template_passes() -> None:
    assert run_altnim("template-functions", example("altnim_template_example.template")) == []


def test_renamed_function() -> None:
    source = CLEAN.replace("def isLeaf(state):", "def is_leaf(state):")
    [violation] = run_altnim("template-functions", source)
    assert violation.rule == "template-functions"
    assert violation.line == source.splitlines().index("def is_leaf(state):") + 1
    assert "`is_leaf` looks like the template's function `isLeaf`" in violation.message
    assert "Change the name back to `isLeaf`" in violation.message


def test_rename_picks_the_closest_name_among_same_parameter_lists() -> None:
    template = "def getRemovals(state):\n    pass\n"
    source = "def helper(state):\n    pass\n\n\ndef get_removals(state):\n    pass\n"
    found = run_rule("template-functions", source, template=template)
    assert len(found) == 2
    renamed = next(v for v in found if "looks like" in v.message)
    assert renamed.line == 5
    assert "`def helper(state)` is a function the template does not have" in (
        next(v for v in found if v is not renamed).message
    )


def test_added_and_removed_functions() -> None:
    source = CLEAN.replace("def MiniMax(state, depth, isMax):", "def miniMax(state, depth):")
    source += "\n\ndef helper(state, extra):\n    return state\n"
    found = run_altnim("template-functions", source)
    added = [v for v in found if "does not have" in v.message]
    removed = [v for v in found if "is missing" in v.message]
    assert len(found) == 3
    assert {a.message.split("`")[1] for a in added} == {
        "def miniMax(state, depth)",
        "def helper(state, extra)",
    }
    assert removed[0].line is None
    assert "`def MiniMax(state, depth, isMax)` is missing" in removed[0].message


@pytest.mark.parametrize(
    ("signature", "shown"),
    [
        ("def MiniMax(state, isMax, depth):", "def MiniMax(state, isMax, depth)"),
        ("def MiniMax(state, depth, isMax=True):", "def MiniMax(state, depth, isMax=True)"),
        ("def MiniMax(state, depth, *, isMax):", "def MiniMax(state, depth, *, isMax)"),
        ("def MiniMax(state, depth, *isMax):", "def MiniMax(state, depth, *isMax)"),
        ("async def MiniMax(state, depth, isMax):", "async def MiniMax(state, depth, isMax)"),
    ],
)
def test_re_signed_function_shows_both_signatures(signature: str, shown: str) -> None:
    source = CLEAN.replace("def MiniMax(state, depth, isMax):", signature)
    [violation] = run_altnim("template-functions", source)
    assert "`MiniMax` must keep the template's parameter list" in violation.message
    assert "The template has `def MiniMax(state, depth, isMax)`" in violation.message
    assert f"your file has `{shown}`" in violation.message


def test_annotations_and_spacing_do_not_matter() -> None:
    source = CLEAN.replace(
        "def MiniMax(state, depth, isMax):", "def MiniMax(state: 'State', depth:int, isMax) -> int:"
    )
    assert run_altnim("template-functions", source) == []


def test_nested_helper_is_added_unless_allowed() -> None:
    source = CLEAN.replace(
        "    if depth == 0 or isLeaf(state):",
        "    def better(s):\n        return s\n    if depth == 0 or isLeaf(state):",
    )
    [violation] = run_altnim("template-functions", source)
    assert "`def better(s)` is a function defined inside `MiniMax`" in violation.message
    assert run_altnim("template-functions", source, allow_nested=True) == []


def test_defined_twice() -> None:
    source = CLEAN + "\n\ndef isLeaf(state):\n    return True\n"
    [violation] = run_altnim("template-functions", source)
    assert "`isLeaf` is defined a second time (first at line" in violation.message
    assert violation.line == len(CLEAN.splitlines()) + 3


def test_ignore_option() -> None:
    source = CLEAN + "\n\ndef main():\n    pass\n"
    assert run_altnim("template-functions", source, ignore=["main"]) == []


def test_methods_compared_when_the_template_has_classes() -> None:
    template = GAME.format(first="play(self, move)", second="undo(self)")
    source = GAME.format(first="play(self, step)", second="redo(self)")
    found = run_rule("template-functions", source, template=template)
    assert lines(found) == [2, 5]
    assert "`Game.play` must keep" in found[0].message
    assert "`redo` looks like the template's function `Game.undo`" in found[1].message


def test_methods_of_new_classes_are_left_to_class_definition() -> None:
    source = CLEAN + "\n\nclass Extra:\n    def method(self):\n        pass\n"
    assert run_altnim("template-functions", source) == []


def test_missing_template_is_a_grader_error() -> None:
    with pytest.raises(GraderError, match="needs the template"):
        run_rule("template-functions", CLEAN)
