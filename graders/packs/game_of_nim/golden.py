"""game_of_nim's golden file: the handout's sample game, replayed on the reference.

``handout.transcript`` is public (the handout prints the same game). It is made by the very
operation the grader test runs on a submission (``driver.replay``: play_nim.py's loop, the
pack's exact fast equivalent of alpha_beta_player, query_player answered from a script), run
on the reference workspace by a one-off ``python3 -c`` that carries the driver's source,
because program runs get no harness folder. The harness's tests prove that this replay prints
what ``python3 play_nim.py`` prints with the textbook's plain alpha-beta.
"""

from __future__ import annotations

import json
from pathlib import Path

from graders.golden import GoldenFile, GoldenRun
from graders.packs import Pack

TRANSCRIPT = "handout.transcript"


def replay_argv(pack: Pack) -> list[str]:
    """``python3 -c <driver source + a call of replay()>`` for the handout's game."""
    settings = pack.settings
    driver = Path(pack.driver).read_text(encoding="utf-8")
    call = (
        "\n\n_out = replay({board}, {typed}, {rule})\n"
        "if _out['error']:\n"
        "    raise SystemExit('the reference did not finish the game: ' + _out['error'])\n"
        "print(_out['transcript'], end='')\n"
    ).format(
        board=json.dumps(settings["handout_board"]),
        typed=json.dumps(settings["handout_typed"]),
        rule=json.dumps(settings["rule"]),
    )
    return ["python3", "-c", driver + call]


def golden_files(pack: Pack) -> list[GoldenFile]:
    return [GoldenFile(TRANSCRIPT, [GoldenRun(replay_argv(pack))], public=True)]
