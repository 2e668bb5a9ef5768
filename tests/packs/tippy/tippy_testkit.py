"""Helpers for the tippy pack's own tests: load the driver on a workspace, in process.

The harness testing its own reference may import reference and template code directly; each
workspace gets fresh copies of the game modules so workspaces never leak into each other.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from graders.sandbox import harness_kit

ROOT = Path(__file__).resolve().parents[3]
REFERENCE = ROOT / "reference_solutions" / "tippy"
TEMPLATES = ROOT / "student_templates" / "tippy"
PACK = ROOT / "graders" / "packs" / "tippy"
GAME_MODULES = (
    "game_state", "move", "strategy", "strategy_random", "subtract_square_move",
    "subtract_square_state", "tippy_game_state", "tippy_move", "strategy_minimax", "game_view",
)
LOCKED = (
    "game_state.py", "move.py", "strategy.py", "strategy_random.py",
    "subtract_square_move.py", "subtract_square_state.py",
)


@contextmanager
def modules_from(*folders: Path) -> Iterator[None]:
    """Make the game modules importable from folders (first wins), fresh, for the block."""
    saved_path, saved_flag = sys.path[:], sys.dont_write_bytecode
    saved = {name: sys.modules.pop(name) for name in GAME_MODULES if name in sys.modules}
    sys.path[:0] = [str(f) for f in folders]
    sys.dont_write_bytecode = True  # keep __pycache__ out of the source trees
    try:
        yield
    finally:
        sys.path[:] = saved_path
        sys.dont_write_bytecode = saved_flag
        for name in GAME_MODULES:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def load_driver() -> ModuleType:
    """Return a fresh copy of the pack's driver module and its helpers (their caches empty).

    As in the sandbox, the helpers (``driver_*.py`` beside the driver, and the engine's
    ``harness_kit``) are imported by their own names: the pack folder is put first on sys.path
    while the driver runs its imports, and the helpers are taken out of sys.modules again
    afterwards (the driver keeps its own).
    """
    helpers = [path.stem for path in PACK.glob("driver_*.py")] + ["harness_kit"]
    saved_path = sys.path[:]
    saved = {name: sys.modules.pop(name) for name in helpers if name in sys.modules}
    sys.modules["harness_kit"] = harness_kit
    sys.path.insert(0, str(PACK))
    try:
        spec = importlib.util.spec_from_file_location("tippy_driver_under_test", PACK / "driver.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved_path
        for name in helpers:
            sys.modules.pop(name, None)
        sys.modules.update(saved)
    return module


@contextmanager
def driver_on(*folders: Path) -> Iterator[ModuleType]:
    """Yield the driver with the game modules taken from folders, then templates."""
    with modules_from(*folders, TEMPLATES):
        yield load_driver()


def workspace_with(tmp: Path, replacements: dict[str, list[tuple[str, str]]]) -> Path:
    """Copy the reference into tmp, apply (old, new) text replacements per file; return tmp.

    Each old text must occur in its file, so a variant can never silently equal the reference.
    """
    for source in REFERENCE.glob("*.py"):
        shutil.copy(source, tmp / source.name)
    for name, pairs in replacements.items():
        text = (tmp / name).read_text()
        for old, new in pairs:
            assert old in text, f"{old!r} not in {name}"
            text = text.replace(old, new)
        (tmp / name).write_text(text)
    return tmp
