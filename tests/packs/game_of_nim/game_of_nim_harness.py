"""Loads the game_of_nim pack's plain-Python files in-process for the harness's own tests.

The starter's ``games.py``, ``play_nim.py`` and a ``game_of_nim.py`` (the reference, the bare
template or a sample submission) are installed in ``sys.modules`` under the names the student
code imports, for one test only (through ``monkeypatch``), and the pack's ``driver.py`` is
loaded beside them, as the sandbox would arrange it.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib.util
import io
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from graders.sandbox import harness_kit

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "student_templates" / "game_of_nim"
REFERENCE = ROOT / "reference_solutions" / "game_of_nim" / "game_of_nim.py"
PACK = ROOT / "graders" / "packs" / "game_of_nim"
SUBMISSIONS = ROOT / "fixtures" / "game_of_nim" / "submissions"


def load_module(name: str, path: Path) -> ModuleType:
    """Execute the file at ``path`` as a fresh module called ``name`` (not registered)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class NimEnv:
    """The modules of one sandbox-like workspace."""

    games: ModuleType
    nim: ModuleType
    play: ModuleType
    driver: ModuleType


def helpers(game_file: Path) -> list[Path]:
    """A sample's own modules beside its game_of_nim.py (its games.py is ignored: locked)."""
    if game_file.parent.parent != SUBMISSIONS:
        return []
    skip = {"game_of_nim.py", "games.py", "play_nim.py"}
    return sorted(path for path in game_file.parent.glob("*.py") if path.name not in skip)


def install(monkeypatch: pytest.MonkeyPatch, game_file: Path = REFERENCE) -> NimEnv:
    """Make ``import games``/``game_of_nim``/``play_nim`` resolve to the pack's locked files and
    ``game_file`` (with a sample's helper modules) for the current test; return them with a
    fresh driver."""
    games = load_module("games", TEMPLATES / "games.py")
    monkeypatch.setitem(sys.modules, "games", games)
    for helper in helpers(game_file):
        monkeypatch.setitem(sys.modules, helper.stem, load_module(helper.stem, helper))
    nim = load_module("game_of_nim", game_file)
    monkeypatch.setitem(sys.modules, "game_of_nim", nim)
    play = load_module("play_nim", TEMPLATES / "play_nim.py")
    monkeypatch.setitem(sys.modules, "play_nim", play)
    return NimEnv(games=games, nim=nim, play=play, driver=load_driver(monkeypatch))


def load_driver(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A fresh ``driver.py``, importing the engine's ``harness_kit`` as the sandbox arranges."""
    monkeypatch.setitem(sys.modules, "harness_kit", harness_kit)
    return load_module("game_of_nim_driver", PACK / "driver.py")


def scripted_run(monkeypatch: pytest.MonkeyPatch, typed: Iterable[str], function, *args):
    """Call ``function(*args)`` with ``input()`` answering ``typed`` (echoed like a terminal);
    return (value, everything printed)."""
    out = io.StringIO()
    lines = iter(typed)

    def fake_input(prompt: str = "") -> str:
        line = next(lines)
        out.write(f"{prompt}{line}\n")
        return line

    monkeypatch.setattr(builtins, "input", fake_input)
    with contextlib.redirect_stdout(out):
        value = function(*args)
    return value, out.getvalue()


HANDOUT_TRANSCRIPT = """\
board: [7, 5, 3, 1]
(0, 1)
board: [6, 5, 3, 1]
current state: board: [6, 5, 3, 1]
available moves: [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 1), (1, 2), (1, 3), \
(1, 4), (1, 5), (2, 1), (2, 2), (2, 3), (3, 1)]

Your move? (0,6)
(0, 6)
board: [0, 5, 3, 1]
(1, 3)
board: [0, 2, 3, 1]
current state: board: [0, 2, 3, 1]
available moves: [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 1)]

Your move? (3,1)
(3, 1)
board: [0, 2, 3, 0]
(2, 1)
board: [0, 2, 2, 0]
current state: board: [0, 2, 2, 0]
available moves: [(1, 1), (1, 2), (2, 1), (2, 2)]

Your move? (2,2)
(2, 2)
board: [0, 2, 0, 0]
(1, 1)
board: [0, 1, 0, 0]
current state: board: [0, 1, 0, 0]
available moves: [(1, 1)]

Your move? (1,1)
(1, 1)
board: [0, 0, 0, 0]
MAX won the game
"""
"""The handout's sample game, as printed there (its PDF joined 'current state:' and the board)."""
