"""The toy sixth assignment (docs/pack-authoring.md, "Worked example"), graded end to end.

``tests/toy/`` is a project root of its own: the four folders of one pack (``packs/``,
``student_templates/``, ``reference_solutions/``, ``fixtures/``) for the id ``subtract_square``.
The engine grades it with no change but the one ``graders.pack`` documents (a root's own
``packs/`` folder), and these tests give it the checks ``tests/packs/test_every_pack.py`` gives
a bundled pack.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders import PACKAGE_DIR
from graders.batch import BatchRequest, grade_batch
from graders.cli import main
from graders.pack import PACKS_DIR, Pack, get_pack
from graders.results import SubmissionResult
from graders.selfcheck import (
    declaration_problems,
    expected_by_student,
    mismatches,
    sample_sources,
    sample_times,
)

ROOT = Path(__file__).resolve().parent
PACK_ID = "subtract_square"
SAMPLES = (
    "apply_no_check", "correct", "do_nothing", "greedy_best_move", "imports_math", "imports_numpy",
    "infinite_loop", "last_winning_move", "moves_ascending", "over_at_one", "syntax_error",
    "winner_is_mover", "wrong_file_name",
)
PACK_FILES = {
    "__init__.py", "assignment.toml", "driver.py", "checks.py", "oracle.py", "generate.py",
    "test_subtract_square_rules.py", "test_subtract_square_game.py",
}


@pytest.fixture(scope="module")
def pack() -> Pack:
    return get_pack(PACK_ID, ROOT)


@pytest.fixture(scope="module")
def graded(pack: Pack, run_cache) -> dict[str, SubmissionResult]:
    """Every sample graded once per test run, in one batch, by the engine."""
    request = BatchRequest(pack=pack, sources=sample_sources(pack), times=sample_times(pack))
    outcome, _ = run_cache.graded("toy-samples", request)
    return {result.student: result for result in outcome.results}


def names(folder: Path) -> set[str]:
    """What ``folder`` holds, less caches (``__pycache__``, ``.mypy_cache``, ...)."""
    return {p.name for p in folder.iterdir() if not p.name.startswith((".", "__pycache__"))}


def test_the_toy_is_four_folders_and_one_declaration(pack: Pack):
    assert names(ROOT) == {"packs", "student_templates", "reference_solutions", "fixtures",
                           "conftest.py", "test_toy_assignment.py", "test_toy_driver.py"}
    for tree in ("packs", "student_templates", "reference_solutions", "fixtures"):
        assert names(ROOT / tree) == {PACK_ID}
    assert pack.dir == ROOT / "packs" / PACK_ID
    assert names(pack.dir) == PACK_FILES


def test_the_engine_never_names_the_toy():
    """No engine file (graders/ less the bundled packs' own folders) knows the toy."""
    engine = [path for path in PACKAGE_DIR.rglob("*.py")
              if path.parent == PACKS_DIR or PACKS_DIR not in path.parents]
    assert engine
    assert [p for p in engine if PACK_ID in p.read_text(encoding="utf-8")] == []


def test_its_modules_import_as_a_bundled_packs_do(pack: Pack):
    oracle = importlib.import_module(f"graders.packs.{PACK_ID}.oracle")
    assert oracle.__file__ and Path(oracle.__file__).parent == pack.dir
    assert oracle.moves(17) == [16, 9, 4, 1]


@pytest.mark.parametrize("student", SAMPLES)
def test_sample_gets_expected_marks(pack: Pack, graded, student: str):
    expected = expected_by_student(pack)[student]
    assert mismatches(graded[student], expected) == []


def test_samples_are_all_there_and_enough(pack: Pack):
    assert sorted(expected_by_student(pack)) == sorted(SAMPLES)
    assert declaration_problems(pack) == []  # what every bundled pack is held to


def test_doing_nothing_earns_at_most_a_tenth(pack: Pack, graded):
    assert graded["do_nothing"].total <= pack.declaration.max_points / 10


def test_reference_scores_full_marks_on_two_workers(pack: Pack, tmp_path: Path):
    """jobs=2 grades in spawned processes, which find the pack again by id and root."""
    twin = tmp_path / "twin"
    shutil.copytree(pack.reference_dir, twin)
    outcome = grade_batch(BatchRequest(pack=pack, sources=[pack.reference_dir, twin], jobs=2))
    for result in outcome.results:
        failed = [f"{t.name}[{t.case}]: {t.message}" for t in result.tests
                  if t.outcome != "passed"]
        assert (result.status, result.total) == ("graded", pack.declaration.max_points), failed


def test_every_criterion_and_rule_cites_a_sentence_of_the_handout(pack: Pack):
    handout = " ".join((pack.templates_dir / "handout.txt").read_text(encoding="utf-8").split())
    citations = [c.handout for c in pack.declaration.criteria]
    citations += [r.handout for r in pack.declaration.rules]
    assert [c for c in citations if " ".join(c.split()) not in handout] == []


def test_grade_golden_check_finds_the_toy_through_its_root(monkeypatch, capsys):
    monkeypatch.setenv("GRADERS_ROOT", str(ROOT))
    assert main(["golden", "--check", PACK_ID]) == 0
    assert "All golden files are up to date." in capsys.readouterr().out


def test_precheck_runs_only_the_public_tests(pack: Pack, tmp_path: Path, monkeypatch, capsys):
    """`grade check` on the handout's kit, filled in with a mistake only hidden tests see."""
    kit = tmp_path / "kit"
    shutil.copytree(pack.templates_dir, kit)
    sample = pack.fixtures_dir / "submissions" / "last_winning_move" / "subtract_square.py"
    shutil.copyfile(sample, kit / "subtract_square.py")
    monkeypatch.setenv("GRADERS_ROOT", str(ROOT))
    assert main(["check", "-a", PACK_ID, str(kit)]) == 0
    assert "All public tests pass" in capsys.readouterr().out


def test_no_grader_test_reads_or_generates_at_import(pack: Pack):
    """A grader test module only imports and defines (constants are literals): its cases are
    made inside the tests, seeded, by generate.py."""
    for path in pack.test_files:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign):
                ast.literal_eval(node.value)  # raises for anything computed
            else:
                assert isinstance(node, ast.Import | ast.ImportFrom | ast.FunctionDef
                                  | ast.Expr), f"{path.name}:{node.lineno}"


def test_a_conftest_above_the_pack_never_joins_its_session(tmp_path: Path):
    """A course keeps its pack in its own repository, whose conftest.py (its own tests') sits
    above the pack's folder: the grading session loads no conftest.py above the pack's folder
    (this suite's tests/conftest.py sits above the toy pack, and did). Graded by `grade` in a
    process of its own: this one has imported the toy pack's modules from tests/toy."""
    root = tmp_path / "course"
    for tree in ("packs", "student_templates", "reference_solutions", "fixtures"):
        shutil.copytree(ROOT / tree / PACK_ID, root / tree / PACK_ID,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for folder in (root, root / "packs"):
        (folder / "conftest.py").write_text(
            'raise RuntimeError("the course\'s own conftest.py joined a grading session")\n',
            encoding="utf-8")
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "graders.cli", "run", str(root / "reference_solutions"),
         "-a", PACK_ID, "--out", str(out)],
        env={**os.environ, "GRADERS_ROOT": str(root)}, cwd=tmp_path, capture_output=True,
        text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    [row] = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert (row["status"], row["total"]) == ("graded", 100), row.get("grader_errors")
