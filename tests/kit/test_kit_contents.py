"""What a kit holds: nothing hidden (a scan of every built kit), the starter kit as students
get it, public requirements only; and the wheel never ships a pack."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from setuptools import find_packages

from graders.kit.collect import collect
from graders.kit.scan import hidden_material, kit_texts, leaks
from graders.pack import get_pack
from tests import canaries
from tests.kit.conftest import PACKS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("pack_id", PACKS)
def test_no_hidden_material_in_the_kit(pack_id, kit_zip):
    pack = get_pack(pack_id)
    kit = kit_texts(kit_zip(pack_id))
    hidden = hidden_material(pack, collect(pack).public)
    assert leaks(kit, hidden) == []
    # The pack's own hidden material, not the run's canaries (tests/canaries.py): every pack
    # has hidden files and hidden lines, and the scan sees what it must: a hidden golden
    # file, a reference line, a hidden test (pnt's hidden tests are hidden parameter cases,
    # read from hidden inputs: no names).
    texts = [text for where, text in hidden.texts.items() if not canaries.is_canary(Path(where))]
    assert texts and [where for where in hidden.lines.values()
                      if not canaries.is_canary(Path(where))]
    secret = texts[0]
    reference = next(p for p in sorted(pack.reference_dir.iterdir()) if p.suffix == ".py")
    line = next(s for s in hidden.lines if hidden.lines[s] == str(reference))
    planted = dict(kit, **{"x/a.txt": secret, "x/b.py": f"    {line}\n"})
    if hidden.names:
        planted["x/c.py"] = f"def {next(iter(hidden.names))}(student):\n"
    found = leaks(planted, hidden)
    assert {f.split(" ")[0] for f in found} == {name for name in planted if name.startswith("x/")}


@pytest.mark.parametrize("pack_id", PACKS)
def test_the_kit_holds_the_starter_kit_and_public_requirements(pack_id, kit_zip):
    pack = get_pack(pack_id)
    with zipfile.ZipFile(kit_zip(pack_id)) as archive:
        names = set(archive.namelist())
        requirements = archive.read(f"{pack_id}-kit/requirements.txt").decode().split()
        readme = archive.read(f"{pack_id}-kit/README.txt").decode()
        for path in pack.templates_dir.iterdir():
            assert archive.read(f"{pack_id}-kit/{path.name}") == path.read_bytes()
    assert {f"{pack_id}-kit/{n}" for n in ("precheck.py", "conftest.py", "pytest.ini")} <= names
    assert all("==" in r and not r.startswith("graders") for r in requirements)
    assert "python3 precheck.py" in readme or "precheck.py" in readme
    assert "What it cannot see" in readme


def test_the_wheel_ships_the_engine_but_no_pack():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    find = config["tool"]["setuptools"]["packages"]["find"]
    found = find_packages(str(ROOT), include=find["include"], exclude=find.get("exclude", ()))
    assert "graders.packs" in found and "graders.kit" in found
    assert not [name for name in found if name.startswith("graders.packs.")]


def test_the_precheck_knows_the_python_the_instructor_grades_with(kit_zip, tmp_path):
    """kit.json records the grader's Python, and the pre-check's syntax rule takes it from
    there (so a student on a newer Python hears of code only that Python reads)."""
    with zipfile.ZipFile(kit_zip("altnim")) as archive:
        archive.extractall(tmp_path)
    kit = tmp_path / "altnim-kit"
    manifest_path = kit / "_precheck" / "kit.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    assert manifest["python"] == list(sys.version_info[:2])
    manifest_path.write_text(json.dumps({**manifest, "python": [3, 9]}), encoding="utf-8")
    shown = subprocess.run(
        [sys.executable, "-c", "import _precheck.main; from _precheck.rules import syntax_error; "
         "print(syntax_error.GRADING_PYTHON)"],
        cwd=kit, capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "(3, 9)"


def test_an_older_python_is_told_what_the_pre_check_needs(kit_zip, tmp_path: Path):
    """Ubuntu 22.04's python3 is 3.10, and pnt's handout asks for 3.8: the pre-check's own
    code stopped there with a traceback (no tomllib). It says what it needs, and the README
    names the same Python."""
    with zipfile.ZipFile(kit_zip("altnim")) as archive:
        archive.extractall(tmp_path)
    kit = tmp_path / "altnim-kit"
    older = ("import runpy, sys; sys.version_info = (3, 10, 12, 'final', 0); "
             "runpy.run_path('precheck.py', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", older], cwd=kit, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("The pre-check needs Python 3.11 or newer; this is Python")
    assert "Python 3.11 or newer" in (kit / "README.txt").read_text(encoding="utf-8")


def run_entry(kit: Path, *args: str, before: str = "") -> subprocess.CompletedProcess:
    """``python3 precheck.py ARGS`` in ``kit``, ``before`` run first in the same process."""
    script = (f"import runpy, sys\n{before}\nsys.argv = ['precheck.py', *{list(args)!r}]\n"
              "runpy.run_path('precheck.py', run_name='__main__')")
    return subprocess.run([sys.executable, "-c", script], cwd=kit, capture_output=True,
                          text=True, timeout=120, check=False)


def test_the_command_line_is_read_before_anything_runs(kit_zip, tmp_path: Path):
    """--help prints what the pre-check does; a path that is not there, or two paths, get
    the usage and exit 2 (a pytest INTERNALERROR traceback before)."""
    with zipfile.ZipFile(kit_zip("altnim")) as archive:
        archive.extractall(tmp_path)
    kit = tmp_path / "altnim-kit"
    helped = run_entry(kit, "--help")
    assert helped.returncode == 0 and helped.stdout.startswith("Check your work before")
    for args in (["nope"], ["my", "work"]):
        done = run_entry(kit, *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "Usage: python3 precheck.py [FOLDER or ZIP]" in done.stderr
    assert "There is no file or folder 'nope'" in run_entry(kit, "nope").stderr


def test_a_half_finished_install_is_told_what_is_missing(kit_zip, tmp_path: Path):
    """pydantic missing (pip stopped half-way; another Python): the pre-check names it and
    the command that installs it, instead of an ImportError from its own code."""
    with zipfile.ZipFile(kit_zip("stonehenge")) as archive:
        archive.extractall(tmp_path)
    kit = tmp_path / "stonehenge-kit"
    hide = ("from importlib import metadata; real = metadata.version\n"
            "def version(name):\n"
            "    if name == 'pydantic': raise metadata.PackageNotFoundError(name)\n"
            "    return real(name)\n"
            "metadata.version = version")
    done = run_entry(kit, before=f"exec({hide!r})")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("The pre-check needs pydantic, not installed for this Python")
    assert "python3 -m pip install -r requirements.txt" in done.stderr


def test_a_rule_that_cannot_read_a_file_is_not_called_passed(kit_zip, tmp_path: Path):
    """A file with a syntax error, an extra import and a global: the pre-check said PASS for
    the import and global rules beside "nothing else in the file can be checked", and the
    student lost 25 points they were told were fine once the syntax was fixed."""
    with zipfile.ZipFile(kit_zip("altnim")) as archive:
        archive.extractall(tmp_path)
    kit = tmp_path / "altnim-kit"
    work = tmp_path / "work"
    work.mkdir()
    reference = (get_pack("altnim").reference_dir / "myAltNimFunctions.py").read_text("utf-8")
    broken = reference.replace("from myAltNimClasses import *",
                               "from myAltNimClasses import *\nimport math\nCOUNT = 0", 1)
    (work / "myAltNimFunctions.py").write_text(broken + "\ndef oops(:\n", encoding="utf-8")
    done = run_entry(kit, str(work))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL File is not valid Python [syntax-error]" in done.stdout
    for rule in ("forbidden-import", "module-global"):
        assert f"[{rule}]: not checked in myAltNimFunctions.py" in done.stdout, done.stdout
        assert not re.search(rf"PASS .*\[{rule}\]", done.stdout)


def test_a_hand_in_problem_names_its_file_and_says_what_to_do(kit_zip, tmp_path: Path):
    """A file saved under a near name: the line names the file (it read "your code was
    graded as ...", the test messages' wording for the grader's operation) and says what to
    do about it."""
    with zipfile.ZipFile(kit_zip("altnim")) as archive:
        archive.extractall(tmp_path)
    kit = tmp_path / "altnim-kit"
    work = tmp_path / "work"
    work.mkdir()
    reference = get_pack("altnim").reference_dir / "myAltNimFunctions.py"
    (work / "myAltNimFunctions (1).py").write_bytes(reference.read_bytes())
    done = run_entry(kit, str(work))
    assert ("at myAltNimFunctions (1).py: `myAltNimFunctions (1).py` was graded as "
            "`myAltNimFunctions.py`") in done.stdout, done.stdout
    assert "what to fix: Rename your file to exactly the name" in done.stdout
    assert "your code was graded" not in done.stdout


def test_a_rule_declared_for_two_entries_is_one_line(kit_zip, tmp_path: Path):
    """tippy declares entry-name for the state's menu entry and the strategy's: the pre-check
    printed a NOTE and then a PASS for the same rule, the NOTE's two places alike."""
    with zipfile.ZipFile(kit_zip("tippy")) as archive:
        archive.extractall(tmp_path)
    kit = tmp_path / "tippy-kit"
    done = run_entry(kit)
    lines = [line for line in done.stdout.splitlines() if "[entry-name]" in line]
    assert len(lines) == 1, done.stdout
    assert lines[0].lstrip().startswith("NOTE"), lines
    places = [line for line in done.stdout.splitlines() if "is not in game_view.py" in line]
    assert len(places) == 2 and len(set(places)) == 2, places
