"""What students are handed agrees with what the grader checks: every unit-test file the starter
kit bundles passes on the reference and on every sample the pack gives full marks (among them
one that takes a freedom the handout leaves, e.g. a fractional estimate where the handout
pins only a range).

A bundled test stricter than the pack (pinning a value the pack leaves open) tells a student
that a full-marks answer is wrong; one that fails on the reference is simply wrong. Both are
refused by `grade selfcheck ID`.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from graders.pack import Pack
from graders.selfcheck import expected_path, sample_sources

SECONDS = 300


def bundled_tests(pack: Pack) -> list[str]:
    """The starter kit's unit-test modules (files that subclass ``unittest.TestCase``)."""
    found = []
    for path in sorted(pack.templates_dir.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(node, ast.ClassDef) and any("TestCase" in ast.unparse(base)
                                                      for base in node.bases)
               for node in ast.walk(tree)):
            found.append(path.stem)
    return found


def full_mark_samples(pack: Pack) -> list[Path]:
    """The pack's sample folders whose expected.json gives full marks."""
    full = pack.declaration.max_points
    found = []
    for source in sample_sources(pack):
        expected = json.loads(expected_path(source).read_text(encoding="utf-8"))
        if source.is_dir() and expected.get("total", 0) >= full - 0.005:
            found.append(source)
    return found


def bundled_test_problems(pack: Pack) -> list[str]:
    """One line per bundled test module that fails on the reference or on a full-marks
    sample; nothing when there is no bundled test or all pass."""
    modules = bundled_tests(pack)
    if not modules:
        return []
    problems = []
    for name, sample in [("the reference", None),
                         *((f"sample {s.name}", s) for s in full_mark_samples(pack))]:
        with tempfile.TemporaryDirectory(prefix="grade-bundled-") as folder:
            workspace = _workspace(pack, Path(folder) / "ws", sample)
            failed = _run(workspace, modules)
        if failed:
            problems.append(f"the bundled {', '.join(modules)} fail on {name}, which the pack "
                            f"gives full marks: {failed}")
    return problems


def _workspace(pack: Pack, target: Path, sample: Path | None) -> Path:
    """The reference's files, the sample's over them, the locked starter files over all."""
    pack.build_reference_workspace(target)
    if sample is not None:
        for path in sample.iterdir():
            if path.is_file() and path.suffix == ".py":
                shutil.copyfile(path, target / path.name)
        for name in pack.declaration.locked.files:
            shutil.copyfile(pack.templates_dir / name, target / name)
    return target


def _run(workspace: Path, modules: list[str]) -> str:
    """The failing tests' summary, or '' when every test passes."""
    try:
        run = subprocess.run([sys.executable, "-m", "unittest", *modules], cwd=workspace,
                             capture_output=True, text=True, timeout=SECONDS, check=False)
    except subprocess.TimeoutExpired:
        return f"they did not finish within {SECONDS} s"
    if run.returncode == 0:
        return ""
    failing = [line for line in run.stderr.splitlines()
               if line.startswith(("FAIL:", "ERROR:"))]
    return "; ".join(failing) or run.stderr.strip().splitlines()[-1]
