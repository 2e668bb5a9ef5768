"""altNim's golden files: out.script and altNim.script are public (the handout gives them to
students); out-hidden.script is hidden."""

from __future__ import annotations

from graders.golden import GoldenFile, GoldenRun
from graders.packs import Pack

# Three scripted games against altNim.py, as the course's script file had: the answers to
# the set-up prompts, then the human's removals (one illegal answer included).
GAMES = [
    "9\ny\n3\n2\n3\n",
    "12\nn\n5\n5\n3\n2\n1\n",
    "7\ny\n2\n4\n",
]
SEPARATOR = "\n"
# The same kinds of tests on other states (fixtures/altnim/inputs/testAltNimHidden.py), so that
# printing the public out.script verbatim cannot pass the output criterion.
HIDDEN_RUN = GoldenRun(["python3", "testAltNimHidden.py"], inputs=("testAltNimHidden.py",))


def game_runs() -> list[GoldenRun]:
    return [GoldenRun(["python3", "altNim.py"], stdin) for stdin in GAMES]


def golden_files(pack: Pack) -> list[GoldenFile]:
    return [
        GoldenFile("out.script", [GoldenRun(["python3", "testAltNim.py"])], public=True),
        GoldenFile("altNim.script", game_runs(), public=True, joiner=SEPARATOR),
        GoldenFile("out-hidden.script", [HIDDEN_RUN]),
    ]
