"""The program server imports the course's packages a program imports once, before its first
fork (issue 29: one real PNT program in six imports sympy, 0.3 s in each of its 27 runs), and
every run still sees what a fresh ``python3 prog.py`` sees."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.pack import get_pack
from graders.sandbox import RunResult
from graders.sandbox.programs import preloads
from graders.tools import environment_mount
from tests.serving import serving_sandbox

PNT = get_pack("pnt")  # its course environment holds sympy and mpmath
COMMAND = ["python3", "prog.py"]
PROGRAM = "import random\nimport sympy\nprint(sympy.isprime(97), sympy.nextprime(97))\n"


@pytest.fixture(scope="module")
def sandbox():
    mount = environment_mount(PNT)
    if mount is None:
        pytest.fail("pnt's course environment is not ready: run `grade setup`")
    with serving_sandbox(mount) as box:
        yield box


def _workspace(folder: Path, program: str, **more: str) -> Path:
    folder.mkdir()
    (folder / "prog.py").write_text(program, encoding="utf-8")
    for name, text in more.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _seen(result: RunResult) -> tuple[object, ...]:
    return result.stdout, result.stderr, result.exit_code, result.timed_out


def test_a_course_package_is_imported_once_and_kept_for_every_run(sandbox, tmp_path):
    workspace = _workspace(tmp_path / "ws", PROGRAM + "print(random.random())\n")
    assert preloads(workspace) == ["sympy"]  # random is the standard library's
    served = [sandbox.run(workspace, COMMAND, PNT.limits) for _ in range(2)]
    fresh = sandbox.run_fresh(workspace, COMMAND, PNT.limits)
    assert sandbox.preloaded(workspace, PNT.limits) == ["sympy"]
    assert sandbox.served(workspace, PNT.limits) == 2
    lines = [run.stdout.splitlines() for run in (*served, fresh)]
    assert [run_lines[0] for run_lines in lines] == ["True 101"] * 3
    assert all(run.exit_code == 0 and run.stderr == "" for run in (*served, fresh))
    # random came in with sympy and stays imported: each run still draws its own numbers
    assert lines[0][1] != lines[1][1]


def test_a_students_file_that_a_package_would_import_keeps_the_package_out(sandbox, tmp_path):
    """A fresh run finds the student's ``mpmath.py`` before the environment's (sympy imports
    mpmath): the server keeps nothing, and its run is the fresh run."""
    workspace = _workspace(tmp_path / "ws", PROGRAM,
                           **{"mpmath.py": "print('the student mpmath')\n"})
    served = sandbox.run(workspace, COMMAND, PNT.limits)
    fresh = sandbox.run_fresh(workspace, COMMAND, PNT.limits)
    assert sandbox.preloaded(workspace, PNT.limits) == []
    assert sandbox.served(workspace, PNT.limits) == 1
    assert _seen(served) == _seen(fresh)
    assert served.stdout.startswith("the student mpmath\n") and served.exit_code == 1


def test_a_name_only_the_student_has_is_never_preloaded(tmp_path):
    workspace = _workspace(tmp_path / "ws", "import helper, sympy.ntheory, os\n"
                           "from sympy import isprime\nfrom . import x\n",
                           **{"helper.py": "import numpy\n"})
    assert preloads(workspace) == ["numpy", "sympy"]
    (workspace / "sympy").mkdir()
    (workspace / "deep.py").write_text("import pygame\nx = " + "-" * 200_000 + "1\n")
    assert preloads(workspace) == ["numpy"]  # a file too deep for the parser names nothing
