"""``expect_equal``'s fast path (plain ``==`` before deepdiff) judges exactly as deepdiff does:
the shortcut may only skip the slow comparison, never change a verdict."""

from __future__ import annotations

from typing import Any

import pytest
from deepdiff import DeepDiff
from hypothesis import given, settings
from hypothesis import strategies as st

from graders.testing import Mismatch, expect_equal

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3),
                    st.sampled_from([0.0, 1.0, 2.5, -1.0]), st.sampled_from(["", "a", "1"]))
PLAIN = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner, inner),
    st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2)), max_leaves=8)


def verdict(actual: Any, expected: Any, loosely: bool) -> bool:
    try:
        expect_equal(actual, expected, numbers_loosely=loosely)
    except Mismatch:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(PLAIN, PLAIN, st.booleans())
def test_the_fast_path_agrees_with_deepdiff(actual, expected, loosely):
    slow = not DeepDiff(expected, actual, ignore_numeric_type_changes=loosely)
    assert verdict(actual, expected, loosely) == slow


@settings(max_examples=100, deadline=None)
@given(PLAIN, st.booleans())
def test_a_value_equals_its_copy(value, loosely):
    assert verdict(value, value, loosely)


@pytest.mark.parametrize("actual, expected, loosely", [
    (1, 1.0, False), ([1, 2], (1, 2), True), ({"a": [1]}, {"a": [2]}, False)])
def test_near_misses_are_explained_field_by_field(actual, expected, loosely):
    with pytest.raises(Mismatch) as failure:
        expect_equal(actual, expected, what="answer", numbers_loosely=loosely)
    assert failure.value.details["kind"] == "deepdiff"
    assert failure.value.details["changes"]


def test_numbers_loosely_treats_1_and_1_0_as_one_value():
    assert verdict([1, {"a": 2}], [1.0, {"a": 2.0}], True)
