"""Subtract Square grader tests for play.py (parent side): the locked program, run on the
student's functions, must print the reference's games exactly."""

from __future__ import annotations

import pytest

from graders.testing import expect_program_output

from .golden import HIDDEN, PUBLIC, play_argv


@pytest.mark.public
def test_game_handout(run_program, public_file, pack):
    run = run_program(play_argv(pack.settings["public_game"]))
    expect_program_output(run, public_file(PUBLIC), pack.limits, mode="exact",
                          what=f"output of play.py vs {PUBLIC}")


def test_game_hidden(run_program, golden, pack):
    run = run_program(play_argv(pack.settings["hidden_games"]))
    expect_program_output(run, golden(HIDDEN), pack.limits, mode="exact",
                          what="output of play.py on the hidden games")
