"""The sandbox and the worker protocol, on a tiny driver written by each test."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graders.errors import StudentCrash, StudentError, StudentTimeout
from graders.sandbox import Isolation, Limits, RunResult, Sandbox
from graders.sandbox.child import NotPlainData, to_plain

DRIVER = textwrap.dedent("""
    import os, socket, sys

    class AlwaysEqual(int):
        def __eq__(self, other):
            return True

    def echo(value):
        print("printed", value)
        return value

    def always_equal():
        return AlwaysEqual(3)

    def an_object():
        return object()

    def ask():
        return input("size? ")

    def spin():
        while True:
            pass

    def exit_now(code):
        os._exit(code)

    def raise_value_error():
        import student
        student.boom()

    def fork_bomb():
        children = 0
        for _ in range(500):
            try:
                if os.fork() == 0:
                    os._exit(0)
                children += 1
            except OSError:
                break
        return children

    def connect():
        socket.create_connection(("1.1.1.1", 80), timeout=2)

    def write_system():
        open("/usr/evil", "w")

    def listdir(path):
        return sorted(os.listdir(path))

    def uid():
        return os.getuid()

    def memory_hog():
        block = bytearray(4 * 1024 ** 3)
        return len(block)

    def disk_hog():
        for index in range(1000):
            with open(f"hog{index}", "wb") as hog:
                hog.write(bytes(1024 * 1024))
""")

LIMITS = Limits(wall_seconds=2, cpu_seconds=2, memory_mb=256, processes=8)


def _skip_without_bubblewrap(sandbox: Sandbox) -> None:
    if sandbox.isolation is Isolation.RLIMITS:
        pytest.skip("bubblewrap is not usable on this machine (rlimits cap only the file size)")


@pytest.fixture(scope="module")
def sandbox():
    box = Sandbox()
    yield box
    box.close()


@pytest.fixture
def worker(sandbox, tmp_path: Path):
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "student.py").write_text("def boom():\n    raise ValueError('bad move')\n")
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    with sandbox.worker(workspace, driver, LIMITS, "test") as live:
        yield live


def test_a_call_returns_plain_data_and_captured_output(worker):
    response = worker.call_raw("echo", {"a": [1, 2.5, None]})
    assert response["value"] == {"a": [1, 2.5, None]}
    assert response["stdout"] == "printed {'a': [1, 2.5, None]}\n"


def test_requests_and_answers_over_64_kib_cross_whole(worker):
    # issue 13 point 9: a pipe hands over at most 64 KiB per read; a short read of the request
    # used to kill the child and be blamed on the student as a crash.
    big = "x" * (300 * 1024)
    response = worker.call_raw("echo", [big, big])
    assert response["ok"] and response["value"] == [big, big]
    assert worker.restarts == 0


def test_subclass_with_rigged_equality_arrives_as_a_real_int(worker):
    value = worker.call("always_equal")
    assert type(value) is int and value == 3 and value != 4


def test_objects_do_not_cross_the_boundary(worker):
    with pytest.raises(StudentError, match="not plain data"):
        worker.call("an_object")


def test_input_comes_from_the_test_and_running_out_is_explained(worker):
    assert worker.call("ask", stdin="7\n") == "7"
    with pytest.raises(StudentError, match="more input"):
        worker.call("ask")


def test_exceptions_are_the_students_with_their_traceback(worker):
    with pytest.raises(StudentError, match="ValueError: bad move") as caught:
        worker.call("raise_value_error")
    trace = caught.value.details["traceback"]
    assert 'student.py", line 2, in boom' in trace
    assert "grader_driver" not in trace and "child.py" not in trace


def test_an_infinite_loop_is_stopped_and_the_worker_restarts(worker):
    with pytest.raises(StudentTimeout, match=f"within {LIMITS.per_call:g} s"):
        worker.call("spin")
    assert worker.call("echo", 1) == 1
    assert (worker.calls, worker.restarts, worker.timeouts) == (2, 1, 1)


def test_call_seconds_stops_a_call_before_the_run_limit(sandbox, tmp_path: Path):
    """``[limits] call_seconds``: a looping function is stopped after the short per-call
    limit, not the program-run limit; a test's own ``timeout=`` still wins."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    limits = replace(LIMITS, wall_seconds=30, call_seconds=0.5)
    assert limits.per_call == 0.5 and replace(limits, call_seconds=None).per_call == 30
    with sandbox.worker(workspace, driver, limits, "test") as live:
        with pytest.raises(StudentTimeout, match="within 0.5 s"):
            live.call("spin")
        with pytest.raises(StudentTimeout, match="within 1.5 s"):
            live.call("spin", timeout=1.5)
        assert (live.calls, live.restarts, live.timeouts) == (2, 1, 2)


def test_after_two_timeouts_later_calls_fail_at_once(worker):
    for _ in range(2):
        with pytest.raises(StudentTimeout):
            worker.call("spin")
    with pytest.raises(StudentTimeout, match="not run"):
        worker.call("echo", 1)
    assert (worker.calls, worker.restarts) == (2, 1)  # the third call started nothing


def test_exit_status_is_reported_in_plain_words(worker):
    with pytest.raises(StudentCrash, match="exit status 3"):
        worker.call("exit_now", 3)


def test_memory_is_capped(worker):
    with pytest.raises(StudentError, match="MemoryError"):
        worker.call("memory_hog")


@pytest.mark.sandbox
def test_a_full_disk_is_explained(sandbox, worker):
    _skip_without_bubblewrap(sandbox)
    with pytest.raises(StudentError, match=f"filled the {LIMITS.disk_mb} MB .*Errno 28"):
        worker.call("disk_hog")


def test_fork_bomb_is_capped(worker):
    assert worker.call("fork_bomb") < LIMITS.processes


@pytest.mark.sandbox
def test_bubblewrap_isolation(sandbox, worker):
    _skip_without_bubblewrap(sandbox)
    with pytest.raises(StudentError, match="OSError|unreachable"):
        worker.call("connect")
    with pytest.raises(StudentError, match="Read-only|Permission"):
        worker.call("write_system")
    assert worker.call("listdir", "/sandbox") == ["student.py"]
    assert "work" not in worker.call("listdir", "/")
    assert worker.call("uid") >= 60000


def test_program_runs_cap_output_and_time(sandbox, tmp_path: Path):
    # a flood is stopped as soon as it passes the output cap, not at the time limit
    flood = sandbox.run(tmp_path, ["python3", "-c", "while True: print('x' * 1000)"], LIMITS)
    assert flood.output_truncated and flood.stopped_for_output and not flood.timed_out
    assert len(flood.stdout) <= LIMITS.output_bytes
    assert "printed more than" in flood.problem(LIMITS)
    loop = sandbox.run(tmp_path, ["python3", "-c", "while True: pass"], LIMITS)
    assert loop.timed_out and "did not finish" in loop.problem(LIMITS)


MANY_HOGS = textwrap.dedent("""
    import os, time
    kids = []
    for _ in range(4):  # 4 x 150 MB: each under the 256 MB per-process cap, together over it
        pid = os.fork()
        if pid == 0:
            block = bytearray(150 * 1024 * 1024)
            block[::4096] = b"x" * len(block[::4096])
            time.sleep(0.5)
            os._exit(0)
        kids.append(pid)
    print(sum(os.waitpid(kid, 0)[1] == 9 for kid in kids))
""")


@pytest.mark.sandbox
def test_memory_is_capped_for_the_whole_sandbox(
    sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    if not sandbox.memory.available:
        pytest.skip("no writable memory cgroup here: memory is capped per process only")
    capped: list[Path] = []
    cap = sandbox.memory.cap

    def spy(uid: int, memory_mb: int) -> Path:
        capped.append(cap(uid, memory_mb))
        return capped[-1]

    monkeypatch.setattr(sandbox.memory, "cap", spy)
    run = sandbox.run(tmp_path, ["python3", "-c", MANY_HOGS], LIMITS)
    assert run.exit_code == 0, run.stderr
    assert int(run.stdout) >= 2  # the kernel killed inside the sandbox: at most 1 fits
    assert capped and not capped[0].parent.exists()  # removed on release


DISK_FILL = textwrap.dedent("""
    import os
    with open("given.txt", "a") as given:  # a file of the workspace stays writable
        given.write("more")
    os.symlink("given.txt", "link.txt")
    written = 0
    try:
        while True:
            with open(f"sub/fill{written}", "wb") as fill:
                fill.write(bytes(1024 * 1024))
            written += 1
    except OSError as error:
        print(written, error.errno, open("link.txt").read(), sorted(os.listdir("sub"))[:2], sep="|")
""")


@pytest.mark.sandbox
def test_new_files_fill_the_sandbox_disk_not_the_graders(sandbox, tmp_path: Path):
    _skip_without_bubblewrap(sandbox)
    workspace = tmp_path / "workspace"
    (workspace / "sub").mkdir(parents=True)
    (workspace / "sub" / "kept.py").write_text("")
    (workspace / "given.txt").write_text("given ")
    run = sandbox.run(workspace, ["python3", "-c", DISK_FILL], replace(LIMITS, disk_mb=4))
    written, errno, linked, listed = run.stdout.split("|")
    assert (int(written), int(errno)) == (4, 28), run.stderr  # 4 MB: ENOSPC on the fifth
    assert linked == "given more"
    assert listed.strip() == "['fill0', 'fill1']"
    assert (workspace / "given.txt").read_text() == "given "  # the scratch copy took it


def test_program_runs_get_stdin_and_exit_status(sandbox, tmp_path: Path):
    run = sandbox.run(
        tmp_path,
        ["python3", "-c", "import sys; print(input()); sys.exit(4)"],
        LIMITS,
        stdin="hello\n",
    )
    assert run.stdout == "hello\n" and run.exit_code == 4
    assert run.problem(LIMITS).startswith("exited with status 4")


def test_a_program_reading_past_its_input_is_told_so():
    """input() at import, or one more than the run's stdin holds (an EOFError's last line)."""
    ran = RunResult(argv=["python3", "pnt.py"], stdout="", exit_code=1, timed_out=False,
                    stderr="Traceback ...\nEOFError: EOF when reading a line\n",
                    output_truncated=False, seconds=0.1)
    assert ran.problem(LIMITS) == ("exited with status 1: EOFError: EOF when reading a line "
                                   "(it asked for more input() than the run gives it)")


plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(plain)
def test_to_plain_keeps_plain_data(value):
    assert to_plain(value) == value


def test_to_plain_turns_tuples_into_lists_and_refuses_sets():
    assert to_plain((1, (2, 3))) == [1, [2, 3]]
    with pytest.raises(NotPlainData):
        to_plain({1, 2})


def test_a_uid_left_clean_is_not_swept_again_when_next_acquired(monkeypatch: pytest.MonkeyPatch):
    """A release whose sweep found nothing marks the uid clean, and the next acquire skips its
    scan of /proc; a release that had to kill something, or a holder that died without
    releasing, leaves the next acquire to sweep."""
    import os

    from graders.sandbox import uids

    swept: list[int] = []
    left = [0]
    monkeypatch.setattr(uids, "sweep_uid", lambda uid: swept.append(uid) or left[0])
    uid = uids.FIRST_UID + uids.POOL_SIZE - 1  # rarely leased by a live grading run
    pool = uids.UidPool(first=uid, size=1)
    uids.LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
    (uids.LOCK_DIR / f"{uid}.lock").write_bytes(b"")  # never released clean
    assert pool.acquire() == uid and len(swept) == 1
    pool.release(uid)
    assert len(swept) == 2
    assert pool.acquire() == uid and len(swept) == 2, "a uid left clean is not swept again"
    assert (uids.LOCK_DIR / f"{uid}.lock").read_bytes() == b"", "not clean while held"
    left[0] = 1  # this release kills a leftover
    pool.release(uid)
    assert pool.acquire() == uid and len(swept) == 4
    left[0] = 0
    os.close(pool.held.pop(uid))  # the holder dies without releasing
    assert pool.acquire() == uid and len(swept) == 5
    pool.close()


@pytest.mark.sandbox
def test_the_harness_modules_load_from_bytecode_the_sandbox_cannot_write(
        sandbox, worker, tmp_path: Path):
    """A worker start reads the driver, the guard and the kit as bytecode compiled when the
    harness was built (the mounted folder is read-only: the sandbox could never write it)."""
    _skip_without_bubblewrap(sandbox)
    harness = sandbox.harness_for(tmp_path / "driver.py")
    loading = ("import sys; sys.path.insert(0, '/harness'); "
               "import grader_driver, child_guard, harness_kit")
    run = sandbox.run(tmp_path / "workspace", ["python3", "-I", "-v", "-c", loading], LIMITS,
                      harness=harness)
    for module in ("grader_driver", "child_guard", "harness_kit"):
        assert f"code object from '/harness/__pycache__/{module}." in run.stderr, run.stderr[-3000:]
    overwrite = ("import glob; "
                 "open(glob.glob('/harness/__pycache__/child_guard.*.pyc')[0], 'wb')")
    refused = sandbox.run(tmp_path / "workspace", ["python3", "-I", "-c", overwrite], LIMITS,
                          harness=harness)
    assert refused.exit_code == 1 and "Read-only file system" in refused.stderr, refused.stderr
