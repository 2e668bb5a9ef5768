"""altNim grader tests: parent side, on plain data from the sandbox only.

Public tests (the student pre-check runs them) replay the declared golden runs (`[[golden]]`)
and diff the locked programs' output with the public golden scripts. Hidden tests compare each
function with the reference on generated states; Hypothesis shrinks a disagreement to the
smallest state, shown in the report.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graders.testing import expect_equal, expect_keys, grading_settings

FLAGS = [(start_odd, action_state) for start_odd in (True, False) for action_state in range(4)]
APPLIED = {"state", "input_unchanged"}
start_odd = st.booleans()
action_state = st.integers(min_value=0, max_value=3)


def show(num: int, odd: bool, state: int) -> str:
    return f"State({num}, startOdd={odd}, actionState={state})"


def expect_agrees(student, reference, op: str, *args, what: str, loosely: bool = False) -> None:
    """The student's answer to driver operation ``op`` is the reference's (``loosely``: 5 and
    5.0 are equal)."""
    expect_equal(student.call(op, *args), reference.call(op, *args), what=what,
                 numbers_loosely=loosely)


@pytest.mark.public
def test_out_script(expect_golden):
    expect_golden("out.script", what="output of testAltNim.py vs out.script")


def test_out_script_on_hidden_states(expect_golden):
    expect_golden("out-hidden.script", what="output of the hidden test script (other states)")


@pytest.mark.public
def test_game_transcript(expect_golden):
    expect_golden("altNim.script", mode="rstrip", what="altNim.py transcript of the three games")


def test_removals_match_reference(student, reference):
    for odd, state in FLAGS:
        expect_agrees(student, reference, "removals", 10, odd, state,
                      what=f"getRemovals({show(10, odd, state)})")


@grading_settings(max_examples=25)
@given(num=st.integers(-2, 30), odd=start_odd, state=action_state, pick=st.integers(0, 1))
def test_apply_matches_reference(student, reference, num, odd, state, pick):
    removal = reference.call("removals", num, odd, state)[pick]
    what = f"applyRemoval({show(num, odd, state)}, {removal})"
    got = expect_keys(student.call("apply", num, odd, state, removal), APPLIED, what=what)
    want = reference.call("apply", num, odd, state, removal)
    expect_equal(got["state"], want["state"], what=f"{what} as [matchsticks, startOdd, "
                 "actionState]")


def test_apply_leaves_input_unchanged(student):
    """Earned only where applyRemoval also does its job: returning the input untouched is
    not a new state (no credit for doing nothing)."""
    got = expect_keys(student.call("apply", 10, True, 0, -3), APPLIED, what="applyRemoval")
    expect_equal(got["state"], [7, True, 1],
                 what="applyRemoval(State(10, True, 0), -3) as [matchsticks, startOdd, "
                 "actionState]")
    assert got["input_unchanged"], (
        "applyRemoval changed the state it was given; it must return a NEW State instead"
    )


@grading_settings(max_examples=15)
@given(num=st.integers(-4, 12), odd=start_odd, state=action_state)
def test_is_leaf_matches_reference(student, reference, num, odd, state):
    expect_agrees(student, reference, "is_leaf", num, odd, state,
                  what=f"isLeaf({show(num, odd, state)})")


@grading_settings(max_examples=30)
@given(num=st.integers(-4, 40), odd=start_odd, state=action_state, is_max=st.booleans())
def test_eval_matches_reference(student, reference, num, odd, state, is_max):
    expect_agrees(student, reference, "evaluate", num, odd, state, is_max, loosely=True,
                  what=f"eval({show(num, odd, state)}, isMax={is_max})")


@grading_settings(max_examples=40)
@given(num=st.integers(0, 16), odd=start_odd, state=action_state, depth=st.integers(0, 7),
       is_max=st.booleans())
def test_minimax_matches_reference(student, reference, num, odd, state, depth, is_max):
    expect_agrees(student, reference, "minimax", num, odd, state, depth, is_max, loosely=True,
                  what=f"MiniMax({show(num, odd, state)}, depth={depth}, isMax={is_max})")
