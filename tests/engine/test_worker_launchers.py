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

    import harness_kit

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

    def forge(fd):
        import struct
        os.write(fd, struct.pack(">I", 2) + b"{}" + bytes(32))
        return 1

    def value_of(module):
        return harness_kit.import_student(module).VALUE
""")
# Student modules the driver's value_of imports: ``dies`` ends its process at import (after a
# word on stderr), ``slow`` takes 1.5 s to import, ``fine`` imports.
MODULES = {
    "dies": "import os\nos.write(2, b'leaving')\nos._exit(4)\nVALUE = 0\n",
    "slow": "import time\ntime.sleep(1.5)\nVALUE = 3\n",
    "fine": "VALUE = 7\n",
}
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
    for name, text in MODULES.items():
        (workspace / f"{name}.py").write_text(text)
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


def test_a_module_that_ends_its_process_at_import_is_not_run_again(worker):
    """Its later calls fail as the first did, without a process started for each (Hypothesis
    asks a failing test again a dozen times); a call importing another module runs."""
    with pytest.raises(StudentCrash) as first:
        worker.call("value_of", "dies")
    message = str(first.value)
    assert message.startswith("`value_of`: the process running your code ended with exit "
                              "status 4: leaving.")
    assert "It happened while importing dies.py" in message
    assert "graders-import" not in message + first.value.details["stderr"]
    assert first.value.details["stderr"].strip() == "leaving"
    for _ in range(3):
        with pytest.raises(StudentCrash) as again:
            worker.call("value_of", "dies")
        assert (str(again.value), again.value.details) == (message, first.value.details)
    assert worker.call("value_of", "fine") == 7
    assert (worker.calls, worker.restarts) == (5, 1)  # one start again, for all the calls


def test_a_slow_import_stopped_by_a_short_limit_runs_again_under_a_longer_one(worker):
    """A timeout at import is told, but not kept as the module's death: game_of_nim's calls
    get 2 s and its replayed game 15 s, and an import may need more than the one, less than
    the other."""
    with pytest.raises(StudentTimeout) as short:
        worker.call("value_of", "slow", timeout=1)
    assert str(short.value).endswith("It was stopped while importing slow.py (the code outside "
                                     "its functions runs then).")
    assert worker.call("value_of", "slow", timeout=30) == 3
    assert worker.died == {}


def test_a_crash_after_the_import_is_charged_to_that_call_only(worker):
    assert worker.call("value_of", "fine") == 7
    with pytest.raises(StudentCrash) as caught:
        worker.call("exit_now", 0)
    assert "importing" not in str(caught.value)
    assert worker.call("value_of", "fine") == 7
    assert worker.died == {}


def test_an_operation_that_forged_its_answer_is_not_run_again(worker):
    """Only code writing into the answer pipe (fd 4 under both launchers) forges: that
    operation's later calls fail as the first did, without a process each; others run."""
    with pytest.raises(StudentCrash, match="private answer channel") as first:
        worker.call("forge", 4)
    for _ in range(3):
        with pytest.raises(StudentCrash) as again:
            worker.call("forge", 4)
        assert str(again.value) == str(first.value)
    assert worker.call("echo", 2) == 2
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
