"""`grade` names the isolation level it used, and refuses the fallback unless asked for it.

On a machine without bubblewrap (``GRADER_ISOLATION=rlimits`` plays one here) student code would
run with resource limits only and could read whatever the sandbox uid can read: `grade` refuses
to grade at all unless the instructor passes ``--isolation rlimits``, and then the console and
every report say so. ``--require-sandbox`` is still accepted (it is the default now).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders.pack import project_root

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


@pytest.mark.parametrize("flags", [[], ["--require-sandbox"]])
def test_grade_refuses_to_fall_back_unless_asked(tmp_path: Path, flags: list[str]):
    out = tmp_path / "reports"
    done = grade(
        [*flags, "-a", "altnim", "--out", str(out), str(SAMPLE)],
        tmp_path,
        GRADER_ISOLATION="rlimits",
    )
    said = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 2, said
    assert "refusing to grade" in said and "apt-get install -y bubblewrap" in said, said
    assert "--isolation rlimits" in said, said
    assert not list(out.rglob("*.json")), "nothing may be graded without the sandbox"


def test_fallback_level_is_named_in_the_console_and_the_reports(tmp_path: Path):
    out = tmp_path / "reports"
    done = grade(
        ["-a", "altnim", "--isolation", "rlimits", "--fresh", "--out", str(out), str(SAMPLE)],
        tmp_path,
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
def test_full_isolation_is_named_and_accepted_with_the_old_flag(tmp_path: Path):
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
