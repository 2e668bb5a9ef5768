"""Subtract Square grader tests for play.py (parent side): the locked program, run on the
student's functions, must print the reference's games exactly (the runs are the declared
`[[golden]]` ones)."""

from __future__ import annotations

import pytest


@pytest.mark.public
def test_game_handout(expect_golden):
    expect_golden("game.txt", what="output of play.py vs game.txt")


def test_game_hidden(expect_golden):
    expect_golden("games-hidden.txt", what="output of play.py on the hidden games")
