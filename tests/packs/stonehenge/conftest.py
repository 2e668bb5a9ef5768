"""The stonehenge self-tests' workspaces, loaded in process (tests/in_process.py)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

from graders.pack import get_pack
from tests.in_process import on_path, workspace

PACK = get_pack("stonehenge")


def watching_recursion(func: Any, game: Any) -> tuple[Any, str | None]:
    """The sandbox guard's recursion watch, played in process by a profiler: ``func(game)``
    and the first function of func's file entered while already running."""
    filename = Path(func.__code__.co_filename).name
    active: dict[Any, int] = {}
    found: list[str] = []

    def profiler(frame: Any, event: str, arg: Any) -> None:
        code = frame.f_code
        if Path(code.co_filename).name != filename:
            return
        if event == "call":
            active[code] = active.get(code, 0) + 1
            if active[code] > 1 and not found:
                found.append(code.co_name)
        elif event == "return":
            active[code] = active.get(code, 1) - 1

    sys.setprofile(profiler)
    try:
        move = func(game)
    finally:
        sys.setprofile(None)
    return move, (found[0] if found else None)


@pytest.fixture
def stonehenge(load_driver):
    """``stonehenge(*folders, files=None, edits=None)``: the driver on a workspace of the
    starter, then the folders, files and edits (``load_driver``). The guard is not in process:
    the driver's recursion watch, the seam its docstring names, is played by
    :func:`watching_recursion`."""

    def load(*folders: Path, **changes: Any):
        driver = load_driver(PACK.templates_dir, *folders, pack=PACK, **changes)
        driver._watching_recursion = watching_recursion
        return driver

    return load


@pytest.fixture
def driver(stonehenge):
    """The driver on the reference."""
    return stonehenge(PACK.reference_dir)


@pytest.fixture
def ref(tmp_path):
    """The reference's own modules, imported from its workspace."""
    with on_path(workspace(PACK, tmp_path / "ws", PACK.templates_dir, PACK.reference_dir)):
        yield {name: importlib.import_module(name)
               for name in ("stonehenge", "strategy", "game_interface")}
