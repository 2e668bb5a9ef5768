"""`grade` names the isolation level it used, and `--require-sandbox` refuses the fallback.

On a machine without bubblewrap (``GRADER_ISOLATION=rlimits`` plays one here) student code runs
with resource limits only and can read whatever the sandbox uid can read: the console and every
report must say so, and an instructor who asked for ``--require-sandbox`` gets no marks at all.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders.packs import project_root

SAMPLE = project_root() / "fixtures" / "altnim" / "submissions" / "correct"


def grade(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the `grade` command line in a fresh interpreter, as an instructor would."""
    return subprocess.run(
        [sys.executable, "-m", "graders.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "200", **env},
        timeout=300,
        check=False,
    )


def test_require_sandbox_refuses_to_fall_back(tmp_path: Path):
    out = tmp_path / "reports"
    done = grade(
        ["--require-sandbox", "-a", "altnim", "--out", str(out), str(SAMPLE)],
        tmp_path,
        GRADER_ISOLATION="rlimits",
    )
    said = done.stdout + done.stderr
    assert done.returncode == 2, said
    assert "--require-sandbox" in said and "refusing to grade" in said, said
    assert not list(out.rglob("*.json")), "nothing may be graded when the sandbox is required"


def test_fallback_level_is_named_in_the_console_and_the_reports(tmp_path: Path):
    out = tmp_path / "reports"
    done = grade(
        ["-a", "altnim", "--fresh", "--out", str(out), str(SAMPLE)],
        tmp_path,
        GRADER_ISOLATION="rlimits",
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "Isolation: rlimits" in said and "FALLBACK" in said, said
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "rlimits" in index and "fallback" in index.lower()
    student = json.loads((out / "students" / "correct.json").read_text(encoding="utf-8"))
    assert student["isolation"] == "rlimits"
    assert "rlimits" in (out / "students" / "correct.html").read_text(encoding="utf-8")


@pytest.mark.sandbox
def test_full_isolation_is_named_and_accepted_by_require_sandbox(tmp_path: Path):
    if os.environ.get("GRADER_ISOLATION") or not shutil.which("bwrap"):
        pytest.skip("bubblewrap is not usable here")
    out = tmp_path / "reports"
    done = grade(
        ["--require-sandbox", "-a", "altnim", "--fresh", "--out", str(out), str(SAMPLE)], tmp_path
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "Isolation: bubblewrap" in said, said
    student = json.loads((out / "students" / "correct.json").read_text(encoding="utf-8"))
    assert student["isolation"].startswith("bubblewrap")
