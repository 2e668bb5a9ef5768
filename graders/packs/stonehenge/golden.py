"""Stonehenge's golden file: a scripted game played through the starter's GameInterface.

The script replaces ``input`` with a silent reader (the prompts are the student's own words)
and the instructions with a fixed text, then plays both players interactively from stdin, so
the transcript holds the boards, the move lists and the announcements the loop prints.
"""

from __future__ import annotations

from graders.golden import GoldenFile, GoldenRun
from graders.packs import Pack

PLAY_SCRIPT = """\
import builtins, sys
def read(prompt=''):
    line = sys.stdin.readline()
    if not line:
        sys.exit('the game asked for more input than the scripted game has')
    return line.rstrip('\\n')
builtins.input = read
import game_interface as gi
players = gi.usable_strategies['i'], gi.usable_strategies['i']
ui = gi.GameInterface(gi.playable_games['h'], *players)
ui.game.get_instructions = lambda: 'Stonehenge'
ui.play()
"""
# p1 first on a side-2 board; Z is not a cell (an invalid move), then the spec's game A G D E F.
PLAY_STDIN = "y\n2\nA\nZ\nG\nD\nE\nF\n"
PLAY_FILE = "play_side2.txt"


def play_run() -> GoldenRun:
    return GoldenRun(["python3", "-c", PLAY_SCRIPT], PLAY_STDIN)


def golden_files(pack: Pack) -> list[GoldenFile]:
    return [GoldenFile(PLAY_FILE, [play_run()])]
