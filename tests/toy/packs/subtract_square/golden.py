"""Subtract Square's golden files: play.py's games, printed by the reference.

``game.txt`` is public (the handout names it); ``games-hidden.txt`` plays other totals, so
that printing the public game verbatim cannot pass. Made by ``grade golden subtract_square``.
"""

from __future__ import annotations

from graders.golden import GoldenFile, GoldenRun
from graders.packs import Pack

PUBLIC = "game.txt"
HIDDEN = "games-hidden.txt"


def play_argv(totals: list[str]) -> list[str]:
    return ["python3", "play.py", *totals]


def golden_files(pack: Pack) -> list[GoldenFile]:
    settings = pack.settings
    return [
        GoldenFile(PUBLIC, [GoldenRun(play_argv(settings["public_game"]))], public=True),
        GoldenFile(HIDDEN, [GoldenRun(play_argv(settings["hidden_games"]))]),
    ]
