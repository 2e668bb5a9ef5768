"""The game_of_nim self-tests' workspaces, loaded in process (tests/in_process.py)."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import SimpleNamespace

import pytest

from graders.pack import get_pack

PACK = get_pack("game_of_nim")


@pytest.fixture
def nim(load_driver):
    """``nim(folder=the reference)``: the workspace of ``folder`` (a sample's folder, say)
    loaded for the test, as ``.games``, ``.nim`` (``game_of_nim``), ``.play`` (``play_nim``)
    and ``.driver``."""

    def on(folder: Path = PACK.reference_dir) -> SimpleNamespace:
        driver = load_driver(folder, pack=PACK)
        games, nim, play = map(importlib.import_module, ("games", "game_of_nim", "play_nim"))
        return SimpleNamespace(games=games, nim=nim, play=play, driver=driver)

    return on


@pytest.fixture
def env(nim) -> SimpleNamespace:
    """The reference's workspace (see ``nim``)."""
    return nim()


@pytest.fixture(scope="session")
def handout_words() -> list[str]:
    """The words of the handout's sample game, as fixtures/game_of_nim/handout.txt prints it
    (in fenced blocks, whose fences are left out)."""
    text = (PACK.fixtures_dir / "handout.txt").read_text(encoding="utf-8")
    game = text.split("user's input is shown in red):", 1)[1].split("Hints:", 1)[0]
    return [word for word in game.split() if word != "```"]
