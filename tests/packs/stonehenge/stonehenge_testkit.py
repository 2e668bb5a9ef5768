"""Helpers for the stonehenge pack's own tests: workspaces of starter + reference files.

The harness may import its own reference and driver in its tests (never student code). Modules
of a workspace are imported under their plain names (``game``, ``stonehenge``...), so
:func:`loaded` removes them from ``sys.modules`` afterwards: other packs use the same names.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from graders.sandbox import harness_kit

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "student_templates" / "stonehenge"
REFERENCE = ROOT / "reference_solutions" / "stonehenge"
PACK = ROOT / "graders" / "packs" / "stonehenge"
WORKSPACE_MODULES = (
    "game", "game_state", "game_interface", "strategy", "stonehenge",
    "subtract_square_game", "subtract_square_state",
)

# The spec's boards, verbatim.
SIDE_1 = """\
      @   @
     /   /
@ - A - B
     \\ / \\
  @ - C   @
       \\
        @"""
SIDE_2 = """\
        @   @
       /   /
  @ - A - B   @
     / \\ / \\ /
@ - C - D - E
     \\ / \\ / \\
  @ - F - G   @
       \\   \\
        @   @"""
SIDE_3 = """\
          @   @
         /   /
    @ - A - B   @
       / \\ / \\ /
  @ - C - D - E   @
     / \\ / \\ / \\ /
@ - F - G - H - I
     \\ / \\ / \\ / \\
  @ - J - K - L   @
       \\   \\   \\
        @   @   @"""
SIDE_2_AGDEF = """\
        1   1
       /   /
  1 - 1 - B   2
     / \\ / \\ /
@ - C - 1 - 2
     \\ / \\ / \\
  2 - 1 - 2   2
       \\   \\
        1   1"""
SIDE_3_ONLY_H = """\
          2   1
         /   /
    1 - 1 - 1   @
       / \\ / \\ /
  1 - 2 - 1 - 1   2
     / \\ / \\ / \\ /
2 - 2 - 2 - H - 2
     \\ / \\ / \\ / \\
  @ - J - 2 - L   1
       \\   \\   \\
        2   2   1"""


def make_workspace(dest: Path, overrides: dict[str, str] | None = None,
                   reference: bool = True) -> Path:
    """Starter files, then the reference (unless ``reference`` is False), then ``overrides``
    (file name -> source)."""
    dest.mkdir(parents=True, exist_ok=True)
    sources = [TEMPLATES, REFERENCE] if reference else [TEMPLATES]
    for folder in sources:
        for path in folder.glob("*.py"):
            shutil.copy(path, dest / path.name)
    shutil.copy(TEMPLATES / "a2_pyta.txt", dest / "a2_pyta.txt")
    for name, text in (overrides or {}).items():
        (dest / name).write_text(text, encoding="utf-8")
    return dest


def _forget_workspace_modules() -> None:
    for name in WORKSPACE_MODULES:
        sys.modules.pop(name, None)


def watching_recursion(func: Any, game: Any) -> tuple[Any, str | None]:
    """The sandbox guard's recursion watch, for the driver run in-process: a profiler naming
    the first function of func's file entered while already running."""
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


@contextmanager
def loaded(workspace: Path, monkeypatch) -> Iterator[ModuleType]:
    """Import the pack's driver with ``workspace`` as the working folder and on sys.path."""
    _forget_workspace_modules()
    monkeypatch.chdir(workspace)
    monkeypatch.setitem(sys.modules, "harness_kit", harness_kit)  # as the harness has it
    monkeypatch.syspath_prepend(str(workspace))
    spec = importlib.util.spec_from_file_location("stonehenge_driver_under_test",
                                                  PACK / "driver.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module._watching_recursion = watching_recursion
    try:
        yield module
    finally:
        _forget_workspace_modules()


@contextmanager
def reference_modules(monkeypatch) -> Iterator[dict[str, ModuleType]]:
    """The reference's own modules, imported straight from its folders."""
    _forget_workspace_modules()
    monkeypatch.syspath_prepend(str(TEMPLATES))
    monkeypatch.syspath_prepend(str(REFERENCE))
    try:
        yield {name: importlib.import_module(name)
               for name in ("stonehenge", "strategy", "game_interface")}
    finally:
        _forget_workspace_modules()
