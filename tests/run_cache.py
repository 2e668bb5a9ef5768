"""What a test run makes once and every xdist worker then reads: graded batches, built kits,
attack runs.

Everything lives in one folder of the run (beside the workers' own temporary folders), each
entry made under a file lock of its own, so a worker that needs an entry another is making
waits for it instead of making it again. Batches are graded into a shared report folder with
``fresh`` off: the engine itself reuses each stored result whose grading key (files, pack and engine
digest, mode, times, isolation, class consensus) is unchanged and regrades the rest, so a
result is never served past a change. Other entries are named with the pack's digest too, or
with a digest of what they are made from (a kit's virtual environment: its requirements).
Entries are made side by side: no test changes a pack's trees while the run lasts (the attack
suite's canaries are there from its start to its end, :mod:`tests.canaries`).
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import pytest
from filelock import FileLock

from graders.batch import BatchRequest, grade_batch
from graders.outcomes import BatchOutcome, digest_pack
from graders.pack import Pack
from tests.gradings import note_entry

T = TypeVar("T")
VALUE = "value.pickle"


class RunCache:
    """Entries shared by the processes of one test run, under ``root``."""

    def __init__(self, root: Path, private: pytest.TempPathFactory) -> None:
        self.root = root
        self.private = private
        root.mkdir(parents=True, exist_ok=True)

    def graded(self, name: str, request: BatchRequest) -> tuple[BatchOutcome, Path]:
        """``request`` graded into the entry's report folder (results already stored there
        under an unchanged grading key are reused, not graded again), and those reports copied
        into a folder of the caller's own, which it may change."""
        asked = time.monotonic()
        shared = self.root / f"{name}-{_batch_digest(request)}"
        with _entry_lock(shared):
            started = time.monotonic()
            outcome = grade_batch(replace(request, out_dir=shared, fresh=False))
            note_entry(name, started - asked, time.monotonic() - started)
            mine = self.private.mktemp(f"reports-{name}")
            shutil.copytree(shared, mine, dirs_exist_ok=True)
        return outcome, mine

    def once(self, name: str, pack: Pack, make: Callable[[Path], T]) -> T:
        """``make(folder)``, run once per run and pack digest; other calls get its value back
        (pickled), with what it left in ``folder``."""
        return self._made(self.root / f"{name}-{digest_pack(pack)[:16]}", make, time.monotonic())

    def keyed(self, name: str, key: str, make: Callable[[Path], T]) -> T:
        """``make(folder)`` run once per run and ``key`` (what the value is made from, e.g. a
        requirements file's text), for something no pack's trees change."""
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
        return self._made(self.root / f"{name}-{digest}", make, time.monotonic())

    def _made(self, folder: Path, make: Callable[[Path], T], asked: float) -> T:
        with _entry_lock(folder):
            started = time.monotonic()
            stored = folder / VALUE
            if stored.is_file():
                value: T = pickle.loads(stored.read_bytes())
                note_entry(folder.name.rsplit("-", 1)[0], started - asked, 0.0)
                return value
            folder.mkdir(exist_ok=True)
            value = make(folder)
            partial = stored.with_suffix(".partial")
            partial.write_bytes(pickle.dumps(value))
            os.replace(partial, stored)
            note_entry(folder.name.rsplit("-", 1)[0], started - asked,
                       time.monotonic() - started)
            return value

def _entry_lock(entry: Path) -> FileLock:
    return FileLock(entry.with_name(f"{entry.name}.lock"))


def _batch_digest(request: BatchRequest) -> str:
    """Names the batch: what it grades and how (two requests that differ get two folders,
    so neither undoes the other's stored results)."""
    pack = request.pack
    payload = {
        "pack": digest_pack(pack, hidden=not request.public_only),
        "sources": sorted(getattr(source, "source", source).name for source in request.sources),
        "public_only": request.public_only,
        "due": request.due,
        "times": sorted((request.times or {}).items()),
        "isolation": request.isolation,
        "index": request.write_index,
    }
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def run_root(config: pytest.Config, factory: pytest.TempPathFactory) -> Path:
    """The run's shared folder: beside the workers' folders under xdist, else in the
    session's own temporary folder."""
    base = factory.getbasetemp()
    return (base.parent if hasattr(config, "workerinput") else base) / "shared"
