"""A pack's driver run in this process, for the pack's own fast self-tests.

Grading never runs student code in the grading process: a driver runs in the sandboxed child.
A pack's self-tests may run it here, on code the harness trusts (the reference, the bare
starter, a sample submission, a variant of the reference a test writes), to prove the
driver's operations one by one in milliseconds. The layout is the sandbox's:

- :func:`workspace` builds the working folder as the grader does: the folders' files, then
  the pack's locked files over them (the instructor's copy wins), then the test's own files.
- :func:`driver_on` loads ``driver.py`` as a plain module (``grader_driver``) from a harness
  folder holding it, its ``driver_*.py`` helpers, the engine's harness modules
  (``harness_kit``, ``harness_entries``) and the pack's ``[entries]`` (``entries.json``),
  with the harness folder, then the workspace, first on ``sys.path`` and the workspace as the
  working folder, as the child has them.
- :func:`on_path` is that isolation alone, to import a workspace's own modules (``import
  games``); :func:`reference_module` imports one module of the reference that way. On
  leaving, every module imported from the workspace or the harness is dropped and any module
  of the same name imported before is put back, so workspaces never leak into each other or
  into other packs' tests (``game_state`` is a module of several packs).

The sandbox guard is not here: a driver's call that asks the guard for something (an audit
event) gets no answer in process.
"""

from __future__ import annotations

import importlib
import io
import itertools
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager, redirect_stdout
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from graders.pack import Pack
from graders.sandbox import HARNESS_MODULES, harness_entries
from graders.sandbox.harness_kit import typed

DRIVER_MODULE = "grader_driver"  # the name the sandbox's child imports the driver by
Edits = Mapping[str, Iterable[tuple[str, str]]]


def workspace(pack: Pack, dest: Path, *folders: Path, files: Mapping[str, str] | None = None,
              edits: Edits | None = None) -> Path:
    """``dest`` filled as the grader fills a workspace, from trusted code: the files of each
    folder in turn (a later one wins; ``expected.json`` left out), then the pack's locked
    files, then ``files`` (name -> text), then ``edits`` (name -> ``(old, new)`` text
    replacements; each old text must occur, so a variant never silently equals its origin)."""
    dest.mkdir(parents=True, exist_ok=True)
    for folder in folders:
        for path in folder.iterdir():
            if path.is_file() and path.name != "expected.json":
                shutil.copyfile(path, dest / path.name)
    for name in pack.declaration.locked.files:
        shutil.copyfile(pack.templates_dir / name, dest / name)
    for name, text in (files or {}).items():
        (dest / name).write_text(text, encoding="utf-8")
    for name, pairs in (edits or {}).items():
        text = (dest / name).read_text(encoding="utf-8")
        for old, new in pairs:
            assert old in text, f"{old!r} is not in {name}"
            text = text.replace(old, new)
        (dest / name).write_text(text, encoding="utf-8")
    return dest


def _module_names(folders: Iterable[Path]) -> set[str]:
    return {path.stem for folder in folders for path in folder.iterdir()
            if path.suffix == ".py" or (path / "__init__.py").is_file()}


def _inside(module: ModuleType, folders: tuple[str, ...]) -> bool:
    file = getattr(module, "__file__", None)
    return isinstance(file, str) and file.startswith(folders)


@contextmanager
def on_path(workspace: Path, *first: Path) -> Iterator[Path]:
    """For the block: ``first`` then ``workspace`` at the head of ``sys.path``, the workspace
    the working folder, its modules importable fresh; everything as it was afterwards."""
    folders = (*first, workspace)
    prefixes = tuple(f"{place}{os.sep}" for folder in folders
                     for place in {str(folder), str(folder.resolve())})
    saved_path, saved_cwd, saved_flag = sys.path[:], os.getcwd(), sys.dont_write_bytecode
    shadowed = {name: sys.modules.pop(name) for name in _module_names(folders)
                if name in sys.modules}
    sys.path[:0] = [str(folder) for folder in folders]
    sys.dont_write_bytecode = True  # no __pycache__ in the workspace a driver may list
    importlib.invalidate_caches()
    os.chdir(workspace)
    before = set(sys.modules)
    try:
        yield workspace
    finally:
        os.chdir(saved_cwd)
        sys.path[:], sys.dont_write_bytecode = saved_path, saved_flag
        for name in set(sys.modules) - before | shadowed.keys():
            if name in shadowed or _inside(sys.modules[name], prefixes):
                sys.modules.pop(name, None)
        sys.modules.update(shadowed)


@contextmanager
def driver_on(pack: Pack, workspace: Path) -> Iterator[ModuleType]:
    """A fresh copy of ``pack``'s driver (its helpers' caches empty), loaded as the sandbox's
    child loads it, on ``workspace`` (see :func:`workspace`)."""
    with tempfile.TemporaryDirectory(prefix="harness-") as folder:
        harness = Path(folder)
        for module in (*HARNESS_MODULES, *pack.dir.glob("driver_*.py")):
            shutil.copyfile(module, harness / module.name)
        (harness / harness_entries.TABLE_FILE).write_text(
            harness_entries.table_json(pack.dir / "assignment.toml"), "utf-8")
        shutil.copyfile(pack.driver, harness / f"{DRIVER_MODULE}.py")
        with on_path(workspace, harness):
            yield importlib.import_module(DRIVER_MODULE)


def reference_module(pack: Pack, name: str) -> ModuleType:
    """Module ``name`` of ``pack``'s reference, imported on a workspace of the reference, for
    the caller alone (not left in ``sys.modules``: the template has a module of that name)."""
    with (tempfile.TemporaryDirectory(prefix="reference-") as folder,
          on_path(workspace(pack, Path(folder), pack.reference_dir))):
        return importlib.import_module(name)


def terminal(answers: Iterable[str], function: Callable[..., Any], *args: Any) -> tuple[Any, str]:
    """``function(*args)`` with ``input()`` answering ``answers``: its value, and what a
    terminal would show (the prompts, the typed lines and everything printed)."""
    shown = io.StringIO()
    with typed(list(answers), echo=shown), redirect_stdout(shown):
        value = function(*args)
    return value, shown.getvalue()


@pytest.fixture
def load_driver(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``load_driver(*folders, files=None, edits=None, pack=None)``: the driver of ``pack``
    (default: the test module's ``PACK``), loaded by :func:`driver_on` on a :func:`workspace`
    of its own, for the test. The latest load wins ``sys.path``: a driver loaded before it
    that imports student modules per call would import them from the latest workspace."""
    with ExitStack() as stack:

        def load(*folders: Path, files: Mapping[str, str] | None = None,
                 edits: Edits | None = None, pack: Pack | None = None) -> ModuleType:
            pack = pack or request.module.PACK
            dest = workspace(pack, tmp_path / f"workspace-{next(count)}", *folders, files=files,
                             edits=edits)
            return stack.enter_context(driver_on(pack, dest))

        count = itertools.count()
        yield load
