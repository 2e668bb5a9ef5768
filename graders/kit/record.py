"""Recording the answers of a pack's hidden helpers for the pre-check (build time only).

The kit's own pre-check runs, in a child interpreter of the instructor's environment (where
the real helpers import), on the reference solution, the bare starter files and every sample
submission of ``fixtures/<id>/submissions/``; each question its public tests ask an oracle
or a generator is answered by the real helper and written to ``_precheck/recorded.json``.
Only the instructor's own trusted files run here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from graders.errors import GraderError
from graders.packs import Pack, project_root


def sources(pack: Pack) -> list[Path]:
    """The reference solution, the bare starter files, then every sample submission."""
    samples = pack.fixtures_dir / "submissions"
    found = [pack.reference_dir, pack.templates_dir]
    if samples.is_dir():
        found += sorted(p for p in samples.iterdir() if p.is_dir())
    return found


def record(pack: Pack, kit: Path) -> None:
    """Fill ``kit/_precheck/recorded.json`` when the kit has recorded helpers."""
    stubs = [p for p in (kit / "_precheck").rglob("*.py")
             if "kit_stub import helper" in p.read_text("utf-8")]
    if not stubs:
        return
    env = dict(os.environ, PRECHECK_RECORD="1",
               PYTHONPATH=os.pathsep.join([str(project_root()), str(kit)]))
    for source in sources(pack):
        with tempfile.TemporaryDirectory(prefix="kit-record-") as scratch:
            folder = Path(scratch) / source.name
            shutil.copytree(source, folder, ignore=shutil.ignore_patterns(
                "expected.json", "__pycache__"))
            done = subprocess.run(
                [sys.executable, str(kit / "precheck.py"), str(folder)], env=env,
                capture_output=True, text=True, timeout=600, check=False)
        if done.returncode not in (0, 1):
            raise GraderError(f"recording the kit of {pack.id} on {source.name} failed:\n"
                              f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
