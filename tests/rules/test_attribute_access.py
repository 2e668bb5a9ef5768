"""Rule ``attribute-access``: the provided classes are used through their methods only."""

from __future__ import annotations

import pytest
from rules_testkit import CLASSES_FILE, example, lines, run_altnim, run_rule

from graders.errors import GraderError
from graders.rules.attribute_access import class_attributes

CLASSES = example("altnim_classes_example.py")


def test_attributes_and_accessors_are_learned_from_the_classes_file() -> None:
    known = class_attributes(CLASSES)
    assert known.names == {"numMatchsticks", "startOdd", "actionState", "MOVES_PER_ROUND"}
    assert known.getters == {
        "numMatchsticks": "getNumMatchsticks",
        "startOdd": "getStartOdd",
        "actionState": "getActionState",
    }
    assert known.setters == {"actionState": "setActionState"}


def test_slots_annotated_and_augmented_attributes() -> None:
    source = (
        "class A:\n    __slots__ = ('left', 'right')\n    size: int = 0\n\n"
        "    def __init__(me):\n        me.count += 1\n        me.total: int = 0\n"
        "        other.ignored = 1\n"
    )
    assert class_attributes(source).names == {"left", "right", "size", "count", "total"}


def test_every_direct_use_is_reported_with_the_accessor_to_use() -> None:
    found = run_altnim("attribute-access", example("attribute_access_direct.py"))
    assert all(v.rule == "attribute-access" for v in found)
    by_line: dict[int, list[str]] = {}
    for violation in found:
        by_line.setdefault(violation.line or 0, []).append(violation.message)
    assert sorted(by_line) == [5, 9, 10, 15, 16, 17, 18]
    assert by_line[5] == [
        "Line 5: `state.numMatchsticks` reads the attribute `numMatchsticks` directly. "
        "Use `state.getNumMatchsticks()` instead."
    ]
    assert "Use `s.getStartOdd()` instead" in by_line[9][0]
    assert "changes the attribute `actionState` directly" in by_line[10][0]
    assert "Use `child.setActionState(...)`" in by_line[10][0]
    assert "`getattr(state, 'numMatchsticks')`" in by_line[15][0]
    assert "deletes the attribute `startOdd`" in by_line[16][0]
    assert "`State.MOVES_PER_ROUND` reads the attribute" in by_line[17][0]
    assert "Use the method that returns" in by_line[17][0]
    assert "Use `state.getActionState()`" in by_line[18][0]


def test_accessor_calls_pass() -> None:
    assert run_altnim("attribute-access", example("clean_altnim_solution.py")) == []


def test_extra_names_without_a_classes_file() -> None:
    source = "def f(game):\n    return game.board, game.turn()\n"
    [violation] = run_rule("attribute-access", source, {"extra_names": ["board"]})
    assert violation.line == 2
    assert "`game.board`" in violation.message


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("def f(s):\n    setattr(s, 'startOdd', False)\n", 2),
        ("def f(s):\n    return hasattr(s, 'startOdd')\n", 2),
        ("def f(s):\n    s.__dict__['startOdd'] = 1\n", 2),
        ("def f(s):\n    s.numMatchsticks -= 1\n", 2),
        ("def f(states):\n    return [x.actionState for x in states]\n", 2),
    ],
)
def test_other_direct_uses(source: str, line: int) -> None:
    assert lines(run_altnim("attribute-access", source)) == [line]


def test_missing_classes_file_is_a_grader_error() -> None:
    with pytest.raises(GraderError, match=CLASSES_FILE):
        run_rule("attribute-access", "x = 1\n", {"classes_file": CLASSES_FILE})
