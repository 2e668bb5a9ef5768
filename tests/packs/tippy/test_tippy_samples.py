"""tippy: checks on the graded samples beyond tests/packs/test_every_pack.py."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def results(sample_results):
    return sample_results("tippy")


def test_the_late_sample_names_its_lateness(results):
    [late] = [d for d in results["late_2h10"].deductions if "late" in d.reason]
    assert late.reason.startswith("late by 2 h 10 min: 3 started hour(s) x 5%")
    assert late.points == 15.0


def test_failures_explain_themselves(results):
    messages = {t.name: t.message for t in results["minimax_worst"].tests
                if t.outcome == "failed"}
    assert "guarantees only" in messages["test_minimax_plays_an_optimal_move"]
    diff = [t for t in results["only_horizontal"].tests
            if t.name == "test_state_agrees_with_reference"][0]
    assert "(vs the reference)" in diff.message
    changed = [v for v in results["game_view_rewritten"].violations if v.rule == "changed-lines"]
    assert any("allows at most 11" in v.message for v in changed)
