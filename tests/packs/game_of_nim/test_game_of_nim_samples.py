"""game_of_nim: checks on the graded samples beyond tests/packs/test_every_pack.py."""

from __future__ import annotations

import pytest

from graders.pack import get_pack

PACK = get_pack("game_of_nim")
SUBMISSIONS, TEMPLATES = PACK.fixtures_dir / "submissions", PACK.templates_dir


@pytest.fixture(scope="module")
def results(sample_results):
    return sample_results("game_of_nim")


def test_reference_and_bare_template_samples_are_current():
    reference = (SUBMISSIONS / "reference" / "game_of_nim.py").read_text()
    template = (SUBMISSIONS / "bare_template" / "game_of_nim.py").read_text()
    assert reference == (PACK.reference_dir / "game_of_nim.py").read_text()
    assert template == (TEMPLATES / "game_of_nim.py").read_text()


def test_notes_explain_what_is_not_graded(results):
    notes = {t.name: t for t in results["other_names"].tests}["test_notes"]
    assert notes.outcome == "skipped"
    assert "'piles'" in notes.message and "['P1', 'P2']" in notes.message
    assert {t.name: t for t in results["reference"].tests}["test_notes"].outcome == "passed"
    state = {t.name: t for t in results["constructor_state"].tests}["test_notes"]
    assert "'state'" in state.message
    players = {t.name: t for t in results["players_a_b"].tests}["test_notes"]
    assert "['A', 'B']" in players.message
    # one label only (no move to make): no claim about the names
    assert {t.name: t for t in results["do_nothing"].tests}["test_notes"].outcome == "passed"


# Correct work in the styles real students hand in (issues 11 and 12): at least 95 % each, less
# only the handout's explicit deduction for moves that are not tuples (3 points).
REAL_STYLE = [
    "utility_literal_max",
    "utility_inverted_min",
    "utility_for_player",
    "constructor_state",
    "players_a_b",
    "other_names",
    "moves_as_lists",
    "helper_module",
    "class_in_helper",
    "edited_games_ignored",
    "chatty_edited_games",
    "starter_kept",
]


@pytest.mark.parametrize("name", REAL_STYLE)
def test_correct_real_style_work_reaches_95(results, name):
    assert results[name].total >= 95, results[name].total


def test_golden_transcript_is_the_handouts_game(handout_words):
    golden = (TEMPLATES / "handout.transcript").read_text()
    assert golden.split() == handout_words
