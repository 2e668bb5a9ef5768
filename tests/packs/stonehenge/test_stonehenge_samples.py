"""stonehenge: checks on the graded samples beyond tests/packs/test_every_pack.py."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def results(sample_results):
    return sample_results("stonehenge")


def test_bare_template_scores_nothing(results):
    assert results["bare_template"].total == 0
