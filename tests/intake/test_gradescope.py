"""`grade gradescope`: the autograder zip runs locally against a fake /autograder tree and
writes a valid results.json for the reference and for a failing sample."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from datetime import datetime
from pathlib import Path

import pytest

from graders.cli import main
from graders.gradescope_run import due_date, gradescope_results
from graders.pack import get_pack, project_root
from graders.results import CriterionMark, Deduction, SubmissionResult

PACK = get_pack("altnim")
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundle")
    assert main(["gradescope", "altnim", "--out", str(out)]) == 0
    return out / "altnim-gradescope.zip"


def _run(bundle: Path, tmp: Path, files: Path, created: str, **env: str) -> dict:
    root = tmp / "autograder"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
    shutil.copytree(files, root / "submission", ignore=shutil.ignore_patterns("expected.json"))
    for line in env.pop("REWRITE", "").splitlines():  # `NAME = value` lines of the submission
        for path in (root / "submission").glob("*.py"):
            text = path.read_text(encoding="utf-8")
            path.write_text(re.sub(rf"^{line.split(' = ')[0]} = .*$", line, text, flags=re.M),
                            encoding="utf-8")
    (root / "submission_metadata.json").write_text(json.dumps({
        "created_at": created, "assignment": {"due_date": "2024-03-05T23:59:00.000000-05:00"},
        "users": [{"name": "Jane Doe", "sid": "12345", "email": "jane@example.edu"}],
    }))
    run = root / "source" / "run_autograder"
    run.chmod(0o755)
    env = {**os.environ, "GRADESCOPE_ROOT": str(root), "GRADER_PYTHON": sys.executable, **env}
    done = subprocess.run([str(run)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"harness: {root / 'source' / 'graders'}" in done.stdout  # the bundle's own copy
    return json.loads((root / "results" / "results.json").read_text())


def _valid(results: dict) -> None:
    assert isinstance(results["score"], int | float) and isinstance(results["output"], str)
    assert results["tests"]
    for test in results["tests"]:
        assert isinstance(test["name"], str) and test["name"]
        assert test["visibility"] in VISIBILITY
        assert isinstance(test.get("output", ""), str)
        if "max_score" in test:
            assert test["score"] <= test["max_score"] or test["max_score"] == 0
    criteria = [t for t in results["tests"] if t.get("max_score")]
    assert sum(t["max_score"] for t in criteria) == PACK.declaration.max_points
    scored = sum(t["score"] for t in results["tests"] if "score" in t)
    assert abs(scored - results["score"]) < 0.01


def test_the_bundle_holds_what_gradescope_runs_and_no_sample(bundle: Path):
    names = zipfile.ZipFile(bundle).namelist()
    assert {"setup.sh", "run_autograder", "pyproject.toml", "graders/batch.py",
            "graders/packs/altnim/assignment.toml"} <= set(names)
    assert not [n for n in names if n.startswith("graders/packs/pnt/")]
    assert not [n for n in names if n.startswith("fixtures/altnim/submissions/")]
    assert any(n.startswith("fixtures/altnim/golden/") for n in names)
    mode = zipfile.ZipFile(bundle).getinfo("run_autograder").external_attr >> 16
    assert mode & 0o111


def test_run_autograder_gives_full_marks_to_the_reference(bundle: Path, tmp_path: Path):
    results = _run(bundle, tmp_path, PACK.reference_dir, "2024-03-05T22:00:00.000000-05:00")
    _valid(results)
    assert results["score"] == PACK.declaration.max_points


def test_run_autograder_marks_a_failing_sample_and_hides_hidden_tests(bundle: Path,
                                                                      tmp_path: Path):
    sample = PACK.fixtures_dir / "submissions" / "wrong_eval_sign"
    expected = json.loads((sample / "expected.json").read_text())
    results = _run(bundle, tmp_path, sample, "2024-03-05T22:00:00.000000-05:00")
    _valid(results)
    assert results["score"] == expected["total"] < PACK.declaration.max_points
    statuses = {t.get("status") for t in results["tests"]}
    assert "failed" in statuses
    hidden = [t for t in results["tests"] if t["visibility"] == "hidden"]
    visible = [t for t in results["tests"] if t["visibility"] == "visible" and "status" in t]
    assert hidden and visible


def test_the_due_date_is_the_users_own_where_gradescope_gives_one():
    """Gradescope writes each user's due date with the extension it granted beside the
    assignment's: a student given two days is not late on the first."""
    meta = {"assignment": {"due_date": "2024-03-05T23:59:00.000000-05:00"},
            "users": [{"sid": "1", "assignment": {"due_date": "2024-03-07T23:59:00.000000-05:00"}},
                      {"sid": "2", "assignment": {"due_date": "2024-03-06T23:59:00.000000-05:00"}}]}
    assert due_date(meta) == datetime.fromisoformat("2024-03-07T23:59:00-05:00")
    for user in meta["users"]:
        del user["assignment"]
    assert due_date(meta) == datetime.fromisoformat("2024-03-05T23:59:00-05:00")
    assert due_date({}) is None


def test_deductions_past_zero_show_what_was_taken():
    """Deductions of 10 and 15 on 5 points earned take 5, then nothing: the rows add up to
    the score Gradescope shows (0), and each says what the rules name."""
    result = SubmissionResult(
        student="s", assignment="altnim", assignment_title="altNim", status="graded",
        isolation="bubblewrap", total=0.0, max_total=100.0,
        criteria=[CriterionMark("output", "Output", 100.0, 5.0, 1, 20)],
        deductions=[Deduction("Forbidden import", 10.0), Deduction("Global variable", 15.0)])
    rows = gradescope_results(PACK, result)["tests"]
    taken = {row["name"]: (row["score"], row["output"]) for row in rows
             if row["name"].startswith("Deduction")}
    assert taken == {
        "Deduction: Forbidden import": (-5.0, "10 points by the rules; the mark cannot go below "
                                        "0, so 5 were taken"),
        "Deduction: Global variable": (0.0, "15 points by the rules; the mark cannot go below 0, "
                                       "so 0 were taken")}
    assert sum(row["score"] for row in rows if "score" in row) == 0.0


@pytest.mark.skipif(os.geteuid() != 0, reason="sandbox uids are set apart only as root, as "
                    "Gradescope runs the autograder")
def test_without_bubblewrap_a_submission_cannot_forge_results_or_read_the_reference(
        bundle: Path):
    """Gradescope's container may not allow bubblewrap: the fallback is the isolation there.
    The attack writes results.json (score 999) at import and from a process it leaves behind,
    and runs the reference solution as its own if it can read it. Here /autograder is a folder
    every user can pass through, its results folder writable by all (the worst a container may
    give): the grader's results stand, the reference stays closed, the folder ends root's."""
    attack = project_root() / "fixtures" / "attacks" / "altnim" / "gradescope_forged_results"
    honest = json.loads((attack / "expected.json").read_text())["total"]
    top = Path(tempfile.mkdtemp(prefix="gradescope-"))
    try:
        top.chmod(0o755)
        (top / "autograder" / "results").mkdir(parents=True)
        (top / "autograder" / "results").chmod(0o777)
        results = _run(bundle, top, attack, "2024-03-05T22:00:00.000000-05:00",
                       GRADER_ISOLATION="rlimits",
                       REWRITE=f'AUTOGRADER = "{top / "autograder"}"')
        time.sleep(3)  # a process left behind would forge every quarter second
        written = (top / "autograder" / "results" / "results.json").read_text()
        folder = (top / "autograder" / "results").stat()
    finally:
        shutil.rmtree(top, ignore_errors=True)
    _valid(results)
    assert json.loads(written) == results and results["score"] <= honest
    assert (folder.st_uid, folder.st_mode & 0o777) == (0, 0o755)
