"""Marks do not depend on how the harness was installed (issue 28, item 6).

Every pack's samples are graded by `grade` twice: from the checkout installed editable, and
from a wheel of it installed in a fresh environment (as the Gradescope bundle and the kit
install it), each started in a working folder of its own. Hypothesis draws some examples from
constants of "local" modules (those outside site-packages): the engine is local when editable
and not from a wheel, so without care the two could test different examples. One sample per
pack keeps this cheap: the one whose expected mark is nearest half marks, which runs every
test and fails some.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders.pack import Pack, discover_packs, project_root
from graders.selfcheck import expected_path, sample_sources
from graders.tools import tools_dir
from tests.venvs import fresh_venv, wheelhouse

ROOT = project_root()
PACKS = discover_packs()
# What a wheel install finds through GRADERS_ROOT: the packs beside the trees they read.
TREES = {"packs": "graders/packs", "fixtures": "fixtures",
         "reference_solutions": "reference_solutions", "student_templates": "student_templates"}

pytestmark = pytest.mark.long


def partly_right(pack: Pack, count: int = 1) -> list[Path]:
    """The ``count`` samples whose expected totals are nearest half the pack's marks."""
    half = pack.declaration.max_points / 2

    def distance(sample: Path) -> tuple[float, str]:
        total = json.loads(expected_path(sample).read_text(encoding="utf-8"))["total"]
        return abs(float(total) - half), sample.name

    return sorted(sample_sources(pack), key=distance)[:count]


@pytest.fixture(scope="module")
def wheel_grade(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``grade`` of a fresh environment holding a wheel built from this checkout, and the
    root it grades from."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"  # a clean copy: a build leaves build/ behind, and reuses it
    shutil.copytree(ROOT / "graders", source / "graders",
                    ignore=shutil.ignore_patterns("__pycache__", "zz_canary_*"))
    shutil.copyfile(ROOT / "pyproject.toml", source / "pyproject.toml")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-index",
                    "--find-links", str(wheelhouse()), "--wheel-dir", str(folder / "dist"),
                    str(source)], check=True, capture_output=True, timeout=600)
    [wheel] = (folder / "dist").glob("graders-*.whl")
    python = fresh_venv(folder / "venv", [str(wheel)])
    root = folder / "root"
    root.mkdir()
    for name, tree in TREES.items():
        (root / name).symlink_to(ROOT / tree, target_is_directory=True)
    return python.parent / "grade", root


def marks(grade: Path, pack: Pack, cwd: Path, root: Path | None) -> dict[str, dict]:
    """``grade`` run in ``cwd`` on the pack's chosen samples: each student's marks."""
    out = cwd / "reports"
    argv = [str(grade), *map(str, partly_right(pack)), "-a", pack.id, "--out", str(out)]
    env = {k: v for k, v in os.environ.items() if k not in ("GRADERS_ROOT", "VIRTUAL_ENV")}
    if root is not None:
        env["GRADERS_ROOT"] = str(root)
    # Both installs use the tool environments `grade setup` built for this checkout.
    env["GRADER_TOOLS_DIR"] = env.get("GRADER_TOOLS_DIR") or str(tools_dir())
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=1200, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert not (cwd / ".hypothesis").exists()  # grading writes only under --out
    return {r["student"]: _marks_of(r)
            for r in json.loads((out / "results.json").read_text(encoding="utf-8"))}


def _marks_of(result: dict) -> dict:
    return {
        "status": result["status"],
        "total": result["total"],
        "criteria": {c["id"]: c["earned"] for c in result["criteria"]},
        "tests": sorted((t["name"], t["case"], t["outcome"]) for t in result["tests"]),
        "violations": sorted((v["rule"], v["file"], v["line"]) for v in result["violations"]),
    }


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_editable_and_wheel_installs_give_the_same_marks(pack_id, wheel_grade, tmp_path):
    pack = PACKS[pack_id]
    grade, root = wheel_grade
    (tmp_path / "editable").mkdir()
    (tmp_path / "wheel").mkdir()
    editable = marks(Path(sys.executable).with_name("grade"), pack, tmp_path / "editable", None)
    wheel = marks(grade, pack, tmp_path / "wheel", root)
    assert len(editable) == 1
    assert wheel == editable
