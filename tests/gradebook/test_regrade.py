"""Done when: a regrade after a pack change lists exactly the students whose marks moved, and
why; deleting an assignment's folder and running `grade gradebook` rebuilds its pages. Graded
for real, with the toy pack (three samples, in a copy of its root so the pack can change)."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders import overrides
from graders.cli import main
from graders.gradebook import open_gradebook

TOY = Path(__file__).resolve().parents[1] / "toy"
PACK = "subtract_square"
SAMPLES = ("correct", "do_nothing", "imports_math")


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project root holding the toy pack, with three students' submissions in it."""
    root = tmp_path / "course"
    shutil.copytree(TOY, root,
                    ignore=shutil.ignore_patterns("__pycache__", "test_toy_assignment.py"))
    batch = root / "batch"
    for name in SAMPLES:
        shutil.copytree(root / "fixtures" / PACK / "submissions" / name, batch / name)
    monkeypatch.setenv("GRADERS_ROOT", str(root))
    monkeypatch.delenv("GRADERS_GRADEBOOK", raising=False)
    return root


def grade(root: Path) -> tuple[int, str]:
    """`grade` on the batch, in a process of its own (a test session imports each pack's
    tests from one root only); its exit code and everything it printed."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from graders.cli import main; sys.exit(main())",
         str(root / "batch"), "-a", PACK, "--jobs", "1"],
        env=dict(os.environ, COLUMNS="200"), capture_output=True, text=True, timeout=900,
        check=False)
    return done.returncode, " ".join((done.stdout + done.stderr).split())


def marks(folder: Path) -> dict[str, str]:
    return {r["student"]: r["total"] for r in csv.DictReader((folder / "marks.csv").open())}


def test_a_regrade_after_a_pack_change_lists_exactly_whose_marks_moved(course: Path, capsys):
    reports = course / "reports"
    code, said = grade(course)
    assert code == 0, said
    assert "first run of subtract_square recorded in the gradebook" in said
    assert (reports / "gradebook.sqlite").is_file() and (reports / "index.html").is_file()
    declaration = course / "packs" / PACK / "assignment.toml"
    text = declaration.read_text()
    assert text.count("deduction = 10") == 1
    declaration.write_text(text.replace("deduction = 10", "deduction = 25"))
    edited = course / "batch" / "correct" / "subtract_square.py"
    edited.write_text(edited.read_text() + "\n# tidied after the deadline\n")
    code, said = grade(course)
    assert code == 0, said
    assert "marks changed since the last run: 1 students" in said
    assert "imports_math: 90 → 75 (the pack changed)" in said
    assert marks(reports / PACK)["imports_math"] == "75"
    term = (reports / "index.html").read_text()
    assert "marks changed since the last run: 1 students" in term
    assert term.count('data-testid="reason"') == 1 and "changed: the pack changed" in term
    index = (reports / PACK / "index.html").read_text()
    assert "marks changed since the last run: 1 students" in index
    assert index.count('data-testid="moved"') == 1
    assert "mark moved since the last run: 90 → 75 (the pack changed)" in index

    assert main(["history", PACK, "imports_math"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "90/100" in lines[1] and "first graded" in lines[1]
    assert "75/100" in lines[2] and "total 90 → 75 (the pack changed)" in lines[2]
    book = open_gradebook(None, reports)
    runs = book.runs(PACK)
    book.close()
    assert main(["history", PACK, "correct"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "no mark moved (their code changed; the pack changed)" in said
    correct = [r for run in runs for r in run.results if r.name == "correct"]
    assert correct[0].code_digest != correct[1].code_digest  # traced, though no mark moved
    assert runs[0].pack_digest != runs[1].pack_digest


def test_overrides_go_to_the_gradebook_and_pages_are_rebuilt_from_it(course: Path, capsys):
    reports = course / "reports"
    assert grade(course)[0] == 0
    assert main(["override", PACK, "do_nothing", "-c", "total", "-p", "12", "-m",
                 "partial credit agreed", "--by", "TA Kim"]) == 0
    book = open_gradebook(None, reports)
    assert [(o.student, o.points, o.from_points) for o in book.override_rows(PACK)] == [
        ("do_nothing", 12.0, 0.0)]
    book.close()
    assert overrides.load(reports / PACK / overrides.FILE_NAME)[0][0].by == "TA Kim"
    assert "1 override(s)" in (reports / "index.html").read_text()
    folder = reports / PACK
    # grade.log records a grading run; pages rebuilt from the gradebook are not one
    not_pages = {"similarity.json", "grade.log"}
    before = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*")
              if p.is_file() and p.name not in not_pages}
    shutil.rmtree(folder)
    assert main(["gradebook"]) == 0
    assert "subtract_square: pages written from the gradebook" in capsys.readouterr().out
    assert marks(folder) == {"correct": "100", "do_nothing": "12", "imports_math": "90"}
    after = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*")
             if p.is_file() and p.name not in not_pages}
    assert after.keys() == before.keys()  # every page, feedback pages too
    assert {k: v for k, v in after.items() if k.suffix in (".json", ".csv")} == {
        k: v for k, v in before.items() if k.suffix in (".json", ".csv")}
    assert "partial credit agreed" in (folder / "students" / "do_nothing.html").read_text()
    assert main(["history", PACK, "do_nothing"]) == 0
    assert "override at" in capsys.readouterr().out

