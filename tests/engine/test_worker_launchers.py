"""One Worker, two launchers (issue 28 item 4): the instructor's keeper under the sandbox and
the student kit's plain child interpreter speak the same protocol through the same
:class:`~graders.sandbox.worker.Worker`, so a call's value, its captured output and every
message a student reads (an exception, a timeout, a crash, the calls skipped after two
timeouts) are the same, and a timeout or a crash starts the process again, once."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.errors import StudentCrash, StudentError, StudentTimeout
from graders.sandbox import Limits, Sandbox
from graders.sandbox.plain_launcher import CHILD, PlainLauncher, posix_limits
from graders.sandbox.worker import Worker

DRIVER = textwrap.dedent("""
    import os

    def echo(value):
        print("printed", value)
        return value

    def raise_value_error():
        import student
        student.boom()

    def spin():
        while True:
            pass

    def exit_now(code):
        os._exit(code)

    def where():
        return os.getcwd()
""")
LIMITS = Limits(wall_seconds=2, cpu_seconds=2, memory_mb=256, processes=8)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    box = Sandbox()
    yield box
    box.close()


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "student.py").write_text("def boom():\n    raise ValueError('bad move')\n")
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    return workspace, driver


@pytest.fixture(params=["keeper", "plain"])
def worker(request, sandbox: Sandbox, tmp_path: Path) -> Iterator[Worker]:
    workspace, driver = _folders(tmp_path)
    if request.param == "keeper":
        made = sandbox.worker(workspace, driver, LIMITS, "test")
    else:  # the kit's harness folder: the engine's loop, the plain child, the driver
        harness = tmp_path / "harness"
        shutil.copytree(sandbox.harness_for(driver), harness)
        shutil.copyfile(Path(__file__).parents[2] / "graders" / "sandbox" / CHILD,
                        harness / CHILD)
        made = Worker(PlainLauncher(), workspace, harness, LIMITS, "test")
    with made:
        yield made


def test_a_call_returns_plain_data_and_its_output(worker):
    response = worker.call_raw("echo", {"a": [1, 2.5, None]})
    assert response["value"] == {"a": [1, 2.5, None]}
    assert response["stdout"] == "printed {'a': [1, 2.5, None]}\n"
    assert worker.call("where") == "/sandbox"  # the plain child's folder named as the sandbox's


def test_an_exception_is_the_students_with_the_same_words(worker):
    with pytest.raises(StudentError) as caught:
        worker.call("raise_value_error")
    assert str(caught.value) == "`raise_value_error` raised ValueError: bad move"
    assert 'File "/sandbox/student.py", line 2, in boom' in caught.value.details["traceback"]
    assert worker.restarts == 0


def test_a_crash_is_told_and_the_worker_starts_again(worker):
    with pytest.raises(StudentCrash) as caught:
        worker.call("exit_now", 3)
    assert str(caught.value).startswith(
        "`exit_now`: the process running your code ended with exit status 3")
    assert worker.call("echo", 1) == 1
    assert (worker.calls, worker.restarts) == (2, 1)


def test_two_timeouts_and_the_rest_is_not_run(worker):
    for _ in range(2):
        with pytest.raises(StudentTimeout, match="did not finish within 1 s and was stopped"):
            worker.call("spin", timeout=1)
    with pytest.raises(StudentTimeout, match="`echo` was not run: your code already ran out "
                       "of time 2 times"):
        worker.call("echo", 1)
    assert (worker.calls, worker.restarts) == (2, 1)


def test_the_plain_launchers_cpu_limit_leaves_the_wall_clock_a_second():
    """As in the instructor's sandbox, with equal CPU and wall limits the wall clock decides:
    a program looping in the pre-check is out of time, so a golden file's later runs are not
    waited for (killed by the CPU limit a moment earlier, each of them was)."""
    done = subprocess.run(
        [sys.executable, "-c", "import resource; print(resource.getrlimit(resource.RLIMIT_CPU))"],
        preexec_fn=posix_limits(Limits(wall_seconds=3, cpu_seconds=3)),  # noqa: PLW1509
        capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "(4, 5)"
