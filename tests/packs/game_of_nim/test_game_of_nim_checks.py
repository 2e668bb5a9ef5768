"""game_of_nim's checks: the words of the transcript test."""

from __future__ import annotations

from graders.packs.game_of_nim.checks import why_stopped


def test_a_game_that_goes_on_past_the_handouts_moves_is_not_said_to_stop_early():
    """The typed answers run out when the game does not end where the handout's does: it was
    reported as "the game stopped early", the opposite of what happened."""
    assert why_stopped("the script of typed answers is used up").startswith(
        "the game went on after the handout's moves")
    assert why_stopped("ValueError: bad move") == "the game stopped early: ValueError: bad move"
