"""The course's environment (issue 25, item 1): `[environment]` in assignment.toml is built by
`grade setup` as the tool env_<id> and mounted read-only as the interpreter of student code;
the standard library is whole; a module none of them provides is one note, not twelve lines.

The samples prove it end to end (tests/packs/test_every_pack.py): tippy imports_pep8, pnt
sympy_primes, game_of_nim tkinter_helper (full marks) and imports_termcolor (one note), the
toy's imports_numpy (a forbidden import stays a rule violation)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from graders.cli import main
from graders.declaration import Declaration
from graders.environment import RULE, blamed_modules, missing_module, module_notes
from graders.kit.builder import requirements
from graders.pack import Pack, get_pack
from graders.pack_specs import EnvironmentSpec
from graders.report.views import faults
from graders.results import SubmissionResult, TestOutcome, ViolationRecord
from graders.sandbox import Limits, Sandbox
from graders.sandbox.isolation import Isolation, sandbox_python
from graders.selfcheck import declaration_problems
from graders.submissions import Submission
from graders.tools import (
    STAMP,
    environment_mount,
    environment_of,
    tools_of,
    unready_tools,
)

PNT = get_pack("pnt")
TIPPY = get_pack("tippy")
NIM = get_pack("game_of_nim")


def failed(name: str, module: str, case: str = "1") -> TestOutcome:
    """A case that failed as the worker reports an import error."""
    return TestOutcome(name=name, case=case, outcome="failed", public=False,
                       message=f"`play` raised ModuleNotFoundError: No module named '{module}'",
                       details={"kind": "exception", "type": "ModuleNotFoundError",
                                "message": f"No module named '{module}'"})


def program_failed(name: str, module: str) -> TestOutcome:
    """A case whose program died on an import error (the error is in its stderr only)."""
    stderr = f"Traceback ...\nModuleNotFoundError: No module named '{module}'\n"
    return TestOutcome(name=name, case="input1", outcome="failed", public=False,
                       message="case input1: output differs", details={"stderr": stderr})


def submission(tmp_path: Path, files: dict[str, str]) -> Submission:
    workspace = tmp_path / "work"
    workspace.mkdir()
    for name, text in files.items():
        (workspace / name).write_text(text)
    return Submission(id="ann", source=tmp_path, workspace=workspace, files=files)


def fake_environment(tools: Path, pack_id: str, modules: list[str]) -> Path:
    """An environment folder holding ``modules`` in its site-packages."""
    site = tools / f"env_{pack_id}" / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    for module in modules:
        (site / module).mkdir()
        (site / module / "__init__.py").write_text("")
    (site / f"{modules[0]}-1.0.dist-info").mkdir()
    return site.parents[2]


# -- the declaration ----------------------------------------------------------------------

def test_the_environment_takes_pinned_lines_only():
    assert EnvironmentSpec(packages=["sympy==1.14.0"]).requirements == ["sympy==1.14.0"]
    for loose in (["sympy"], ["sympy>=1.12"], ["sympy==1.14.0; python_version<'3'"]):
        with pytest.raises(ValueError, match="pin each package exactly"):
            EnvironmentSpec(packages=loose)


def test_no_tool_may_take_the_environments_name():
    data = {"id": "demo", "title": "Demo", "submission": {"files": ["a.py"]},
            "criteria": [{"id": "c", "title": "C", "points": 1}],
            "tools": [{"name": "env_demo", "requirements": ["x==1"]}]}
    with pytest.raises(ValueError, match="env_"):
        Declaration.model_validate(data)


def test_the_environment_is_a_tool_of_its_pack(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_TOOLS_DIR", str(tmp_path))
    [course] = tools_of(TIPPY)
    assert (course.name, course.home) == ("env_tippy", tmp_path / "env_tippy")
    assert course.spec.requirements == ["pep8==1.7.1"]
    assert "grade setup tippy" in (course.problem() or "")
    assert environment_mount(TIPPY) is None  # not built: the pre-check goes on without it
    assert unready_tools(TIPPY) == [course.problem()]  # and grading refuses to start
    assert "the course's environment (pep8==1.7.1)" in (course.problem() or "")
    course.home.mkdir()
    stamp = {"requirements": course.spec.requirements, "python": sandbox_python()}
    (course.home / STAMP).write_text(json.dumps(stamp))
    assert environment_mount(TIPPY) == ("env_tippy", tmp_path / "env_tippy")
    assert environment_of(NIM) is None  # tkinter is standard library: nothing to build


def test_the_kit_lists_what_student_code_may_import():
    assert {"sympy==1.14.0", "mpmath==1.3.0"} <= set(requirements(PNT))
    assert "pep8==1.7.1" in requirements(TIPPY)


def test_grade_explain_documents_the_key(capsys):
    assert main(["explain"]) == 0
    said = capsys.readouterr().out
    assert "environment.course" in said and "environment.packages" in said


# -- the sandbox --------------------------------------------------------------------------

@pytest.fixture
def shared_tmp():
    """A folder every uid may pass through, as the tools folder is (pytest's tmp_path is
    root's own: a sandbox uid under the rlimits fallback could not read an environment
    there)."""
    folder = Path(tempfile.mkdtemp(prefix="env-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def venv_with(folder: Path, module: str, text: str) -> Path:
    """A bare virtual environment of the sandbox's interpreter with one module in it."""
    subprocess.run([sandbox_python(), "-m", "venv", "--without-pip", str(folder)], check=True)
    [site] = folder.glob("lib/python3*/site-packages")
    (site / f"{module}.py").write_text(text)
    for path in (folder, *folder.rglob("*")):
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


@pytest.mark.sandbox
@pytest.mark.parametrize("isolation", [None, Isolation.RLIMITS])
def test_student_code_imports_the_environment_and_the_whole_standard_library(
    tmp_path, shared_tmp, isolation
):
    home = venv_with(shared_tmp / "env_demo", "coursemod", "ANSWER = 42\n")
    work = tmp_path / "work"
    work.mkdir()
    (work / "main.py").write_text(
        "import coursemod, sys, tkinter\nprint(coursemod.ANSWER, sys.prefix)\n")
    sandbox = Sandbox(isolation, environment=("env_demo", home))
    try:
        worker_style = sandbox.run(work, ["python3", "-I", "-c", "import coursemod"], Limits())
        program = sandbox.run(work, ["python3", "main.py"], Limits())
    finally:
        sandbox.close()
    assert worker_style.exit_code == 0, worker_style.stderr
    assert program.exit_code == 0, program.stderr
    answer, prefix = program.stdout.split()
    assert answer == "42"
    assert prefix in ("/tools/env_demo", str(home))


@pytest.mark.sandbox
def test_the_environment_is_read_only_to_student_code(tmp_path, shared_tmp):
    home = venv_with(shared_tmp / "env_demo", "coursemod", "ANSWER = 42\n")
    work = tmp_path / "work"
    work.mkdir()
    write = "open('/tools/env_demo/lib/planted.py', 'w').write('x')"
    sandbox = Sandbox(environment=("env_demo", home))
    try:
        run = sandbox.run(work, ["python3", "-c", write], Limits())
    finally:
        sandbox.close()
    assert run.exit_code != 0
    assert not (home / "lib" / "planted.py").exists()


# -- a module nobody provides ---------------------------------------------------------------

def test_a_module_nobody_provides_is_one_note_naming_the_key(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_TOOLS_DIR", str(tmp_path / "tools"))
    work = submission(tmp_path, {"game_of_nim.py": "from games import *\n"
                                 "from termcolor import colored\n"})
    tests = [failed(f"test_{n}", "termcolor", case=str(c)) for n in range(12) for c in range(2)]
    notes, errors = module_notes(NIM, work, tests, [])
    assert errors == []
    [note] = notes
    assert (note.rule, note.kind, note.file, note.line, note.deduction) == (
        RULE, "termcolor", "game_of_nim.py", 2, 0.0)
    assert note.source_line == "from termcolor import colored"
    assert "24 test case(s)" in note.message and "`[environment] packages`" in (note.fix or "")
    assert "grade setup game_of_nim" in (note.fix or "")


def test_a_program_dying_on_the_import_is_read_from_its_error_output(tmp_path):
    work = submission(tmp_path, {"main.py": "import numpy\n"})
    [note], _ = module_notes(PNT, work, [program_failed("test_move", "numpy")], [])
    assert note.kind == "numpy"


def test_a_missing_standard_module_or_environment_module_is_a_grader_error(
    tmp_path, monkeypatch
):
    tools = tmp_path / "tools"
    monkeypatch.setenv("GRADER_TOOLS_DIR", str(tools))
    fake_environment(tools, "pnt", ["sympy", "mpmath"])
    work = submission(tmp_path, {"pnt.py": "import tkinter\nimport sympy\n"})
    notes, errors = module_notes(PNT, work, [failed("test_move", "tkinter"),
                                             failed("test_value", "sympy")], [])
    assert notes == []
    assert len(errors) == 2
    assert "standard library" in errors[0] and "python3-tk" in errors[0]
    assert "grade setup --force pnt" in errors[1]


def test_own_files_and_forbidden_imports_get_no_note(tmp_path):
    work = submission(tmp_path, {"game_of_nim.py": "import nim_board\nimport numpy\n"})
    forbidden = ViolationRecord(rule="forbidden-import", title="Forbidden import",
                                file="game_of_nim.py", message="...", line=2,
                                source_line="import numpy")
    tests = [failed("test_a", "nim_board"), failed("test_b", "numpy")]
    (work.workspace / "nim_board.py").write_text("")  # a file of theirs (or a locked one)
    assert module_notes(NIM, work, tests, [forbidden]) == ([], [])


def test_what_to_fix_shows_the_note_once_not_a_line_per_test():
    tests = [failed(f"test_{n}", "termcolor") for n in range(12)]
    tests.append(TestOutcome(name="test_other", case="", outcome="failed", public=False,
                             message="wrong board"))
    note = ViolationRecord(rule=RULE, title="Module not in the course's environment",
                           file="game_of_nim.py", message="...", kind="termcolor")
    result = SubmissionResult(student="ann", assignment="game_of_nim", assignment_title="Nim",
                              status="graded", isolation="", tests=tests, violations=[note])
    assert blamed_modules(result) == {"termcolor"}
    assert [group["name"] for group in faults(result)] == ["test_other"]
    result.violations = []  # no note (a forbidden import): every test is its own line
    assert len(faults(result)) == 13


def test_only_a_failure_names_a_missing_module():
    assert missing_module(failed("test_a", "sympy")) == "sympy"
    passed = TestOutcome(name="t", case="", outcome="passed", public=False,
                         message="No module named 'sympy'")
    assert missing_module(passed) is None
    dotted = failed("test_a", "sympy")
    dotted.message = dotted.details["message"] = "No module named 'sympy.nothing'"
    assert missing_module(dotted) is None  # the student's own mistake inside a package


def test_an_environment_cites_the_handout_like_a_criterion():
    uncited = PNT.declaration.model_copy(update={"environment": EnvironmentSpec(
        packages=["sympy==1.14.0"])})
    problems = declaration_problems(Pack(uncited, PNT.dir, PNT.root))
    assert "[environment]: no `handout = \"<the sentence it enforces>\"`" in problems
    assert not any("[environment]" in p for p in declaration_problems(PNT))


def test_a_required_file_not_handed_in_is_no_environment_matter(tmp_path):
    work = submission(tmp_path, {"helper.py": ""})
    tests = [failed("test_a", "game_of_nim"), failed("test_b", "games")]
    assert module_notes(NIM, work, tests, []) == ([], [])


def test_a_declared_package_missing_from_an_unbuilt_environment_is_a_grader_error(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("GRADER_TOOLS_DIR", str(tmp_path / "tools"))  # nothing built there
    work = submission(tmp_path, {"tippy_move.py": "import pep8\n"})
    notes, [error] = module_notes(TIPPY, work, [failed("test_move_x", "pep8")], [])
    assert notes == [] and "grade setup --force tippy" in error


def test_grade_explain_id_shows_the_environment_with_its_sentence(capsys):
    assert main(["explain", "tippy"]) == 0
    said = capsys.readouterr().out
    assert "  course: pep8==1.7.1" in said and "Save pep8.py in the same directory" in said
