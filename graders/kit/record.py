"""Recording the answers of a pack's hidden helpers for the pre-check (build time only).

The public tests ask an oracle or a generator questions about the public cases (the handout's
positions, the public boards, the totals a public test names): the questions are a function of
the cases, not of what the student answers, but for the failure messages of a few tests. So the
kit's own pre-check runs ONCE, on the reference solution, in a child interpreter of the
instructor's environment (where the real helpers import); each question its public tests ask
is answered by the real helper, and the answers go to ``_precheck/recorded.json``. No sample
submission is graded and no tool (python_ta) runs: in recording mode the kit's tools refuse
to start (:mod:`graders.kit.runtime.tools`), and a public test that needs one is an error of
that recording run, thrown away. Only the instructor's own trusted files run here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from graders.errors import GraderError
from graders.pack import Pack, project_root


def sources(pack: Pack) -> list[Path]:
    """What the pre-check runs on while recording: the reference solution alone."""
    return [pack.reference_dir]


def _run(kit: Path, source: Path, scratch: Path) -> dict[str, Any]:
    folder = scratch / "student" / source.name
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("expected.json",
                                                                   "__pycache__"))
    answers = scratch / "answers.json"
    env = dict(os.environ, PRECHECK_RECORD=str(answers),
               PYTHONPATH=os.pathsep.join([str(project_root()), str(kit)]))
    done = subprocess.run([sys.executable, str(kit / "precheck.py"), str(folder)], env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    if done.returncode not in (0, 1) or not answers.is_file():
        raise GraderError(f"recording the kit on {source} failed (exit {done.returncode}):\n"
                          f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return json.loads(answers.read_text("utf-8"))


def record(pack: Pack, kit: Path) -> int:
    """Fill ``kit/_precheck/recorded.json`` when the kit has recorded helpers; the number of
    pre-check runs it took (one, or none without recorded helpers)."""
    stubs = [p for p in (kit / "_precheck").rglob("*.py")
             if "kit_stub import helper" in p.read_text("utf-8")]
    if not stubs:
        return 0
    merged: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="kit-record-") as scratch:
        for index, source in enumerate(sources(pack)):
            place = Path(scratch) / str(index)
            place.mkdir()
            for module, entry in _run(kit, source, place).items():
                into = merged.setdefault(module, {"constants": {}, "calls": {}})
                into["constants"].update(entry["constants"])
                into["calls"].update(entry["calls"])
    (kit / "_precheck" / "recorded.json").write_text(json.dumps(merged, sort_keys=True),
                                                       encoding="utf-8")
    return len(sources(pack))
