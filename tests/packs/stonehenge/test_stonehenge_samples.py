"""stonehenge: checks on the graded samples beyond tests/packs/test_every_pack.py."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def results(sample_results):
    return sample_results("stonehenge")


def test_bare_template_scores_nothing(results):
    assert results["bare_template"].total == 0


def test_a_style_test_with_only_messages_python_ta_gained_later_passes_and_lists_them(results):
    """Full style marks are no failure: nothing to fix, every counted test passed, and the
    criterion still lists the kind, with its places, as not counted."""
    result = results["hexgrid_helper_format_strings"]
    style_test = next(t for t in result.tests if t.name == "test_style_python_ta")
    assert style_test.outcome == "passed"
    assert "C0209 consider-using-f-string" in style_test.details["kinds"]
    style = next(mark for mark in result.criteria if mark.id == "style")
    assert (style.earned, style.passed, style.total) == (10, 1, 1)
    assert [(c.kind, c.points, len(c.places)) for c in style.causes] == [
        ("C0209 consider-using-f-string", 0.0, 3)]
    assert not [t.name for t in result.tests if t.outcome != "passed"]
