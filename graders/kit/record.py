"""Recording the answers of a pack's hidden helpers for the pre-check (build time only).

The kit's own pre-check runs, in child interpreters of the instructor's environment (where
the real helpers import, and the pack's tools are the instructor's ``.tools``), on the
reference solution, the bare starter files and every sample submission of
``fixtures/<id>/submissions/``; each question its public tests ask an oracle or a generator
is answered by the real helper, and the answers are merged into ``_precheck/recorded.json``.
Only the instructor's own trusted files run here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from graders.errors import GraderError
from graders.pack import Pack, project_root
from graders.tools import tools_dir


def sources(pack: Pack) -> list[Path]:
    """The reference solution, the bare starter files, then every sample submission."""
    samples = pack.fixtures_dir / "submissions"
    found = [pack.reference_dir, pack.templates_dir]
    if samples.is_dir():
        found += sorted(p for p in samples.iterdir() if p.is_dir())
    return found


def _run(kit: Path, source: Path, scratch: Path) -> dict[str, Any]:
    folder = scratch / "student" / source.name
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("expected.json",
                                                                   "__pycache__"))
    answers = scratch / "answers.json"
    env = dict(os.environ, PRECHECK_RECORD=str(answers), PRECHECK_TOOLS_DIR=str(tools_dir()),
               PYTHONPATH=os.pathsep.join([str(project_root()), str(kit)]))
    done = subprocess.run([sys.executable, str(kit / "precheck.py"), str(folder)], env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    if done.returncode not in (0, 1) or not answers.is_file():
        raise GraderError(f"recording the kit on {source} failed (exit {done.returncode}):\n"
                          f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return json.loads(answers.read_text("utf-8"))


def record(pack: Pack, kit: Path, jobs: int | None = None) -> None:
    """Fill ``kit/_precheck/recorded.json`` when the kit has recorded helpers."""
    stubs = [p for p in (kit / "_precheck").rglob("*.py")
             if "kit_stub import helper" in p.read_text("utf-8")]
    if not stubs:
        return
    with tempfile.TemporaryDirectory(prefix="kit-record-") as scratch:
        def one(index_source: tuple[int, Path]) -> dict[str, Any]:
            index, source = index_source
            place = Path(scratch) / str(index)
            place.mkdir()
            return _run(kit, source, place)

        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            tables = list(pool.map(one, enumerate(sources(pack))))
    merged: dict[str, Any] = {}
    for table in tables:
        for module, entry in table.items():
            into = merged.setdefault(module, {"constants": {}, "calls": {}})
            into["constants"].update(entry["constants"])
            into["calls"].update(entry["calls"])
    (kit / "_precheck" / "recorded.json").write_text(json.dumps(merged, sort_keys=True),
                                                       encoding="utf-8")
