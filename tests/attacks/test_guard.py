"""The worker's guard (``graders/sandbox/guard.py``): student code cannot switch the grader's
probes off, reach the harness's frames or memory, or answer for the worker.

Each case is a function of a student module that one worker call runs; honest uses of the
standard library that look at frames on the student's behalf (namedtuple, typing, logging,
traceback text) keep working.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.batch import BatchRequest, grade_batch
from graders.errors import StudentCrash, StudentError
from graders.pack import get_pack
from graders.sandbox import Isolation, Limits, Sandbox
from graders.sandbox.isolation import close_hidden_trees
from graders.sandbox.worker import Worker

DRIVER = textwrap.dedent('''
    import sys

    def run(name, *args):
        import student
        return getattr(student, name)(*args)

    def watched(name, *args):
        import student
        finding = {}
        sys.audit("graders.recursion.start", "student.py")
        try:
            getattr(student, name)(*args)
        finally:
            sys.audit("graders.recursion.stop", finding)
        return finding

    def made(name, *args):
        import student
        return getattr(student, name)()(*args)
''')

STUDENT = textwrap.dedent('''
    import collections, json, logging, os, re, signal, struct, sys, textwrap, time, traceback
    import typing

    def honest():
        point = collections.namedtuple("Point", "x y")(1, 2)
        named = typing.NamedTuple("Named", [("a", int)])(3)
        try:
            raise ValueError("shown")
        except ValueError:
            text = traceback.format_exc()
        logging.getLogger("student").warning("a warning")
        return [point.x, named.a, "shown" in text]

    def setprofile_off():
        try:
            sys.setprofile(None)
        except Exception:
            pass
        return "still running"

    def settrace_off():
        sys.settrace(None)

    def getframe():
        return sys._getframe().f_back.f_locals.get("request_id")

    def traceback_frame():
        try:
            raise ValueError
        except ValueError as exc:
            return exc.__traceback__.tb_frame.f_back.f_locals.get("request_id")

    def inspect_stack():
        import inspect
        try:
            return len(inspect.stack())
        except ValueError as exc:
            return str(exc)

    def gc_objects():
        import gc
        return len(gc.get_objects())

    def ctypes_memory():
        import ctypes
        return ctypes.sizeof(ctypes.c_int)

    def fresh_sys():
        import _imp, importlib.machinery
        return hasattr(_imp.create_builtin(importlib.machinery.ModuleSpec("sys", None)),
                       "getprofile")

    def signal_frame():
        seen = []
        signal.signal(signal.SIGALRM, lambda number, frame: seen.append(frame))
        signal.setitimer(signal.ITIMER_REAL, 0.005)
        started = time.monotonic()
        while not seen and time.monotonic() - started < 2:
            pass
        return repr(seen)

    def forge_every_fd():
        for fd in range(3, 64):
            for request_id in range(1, 20):
                data = json.dumps({"id": request_id, "ok": True, "value": 42, "stdout": "",
                                   "stderr": "", "output_dropped": 0, "watches": []}).encode()
                try:
                    os.write(fd, struct.pack(">I", len(data)) + data)
                except OSError:
                    break
        return 0

    def thread_left():
        import threading
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        return 0

    def spoof_filename():
        exec(compile("def f(): pass", os.__file__, "exec"), {})

    def leave_temp_files():
        for folder in ("/tmp", "/dev/shm"):
            with open(os.path.join(folder, f"left-by-{os.getuid()}"), "w") as handle:
                handle.write("pwned")
        return os.getuid()

    def recurse(depth):
        return 0 if depth == 0 else recurse(depth - 1)

    def recurse_switching_off(depth):
        try:
            sys.setprofile(None)
        except Exception:
            pass
        return recurse(depth)

    def end_the_watch(depth):
        sys.audit("graders.recursion.stop", {})
        return recurse(depth)

    CHAIN = """
    def chain(*args):
        import sys
        frame, seen = sys._getframe(1), []
        while frame is not None:
            seen.append([frame.f_code.co_name, frame.f_locals.get("request_id")])
            frame = frame.f_back
        return seen
    """

    def frozen_named():
        found = {}
        exec(compile(textwrap.dedent(CHAIN), "<frozen chain>", "exec"), found)
        return found["chain"]

    def frozen_renamed():
        import _imp
        code = compile(textwrap.dedent(CHAIN), "chain.py", "exec")
        _imp._fix_co_filename(code, "<frozen chain>")
        found = {}
        exec(code, found)
        return found["chain"]

    def exec_recursion(depth):
        found = {}
        exec("def again(d):\\n    return 0 if d == 0 else again(d - 1)\\n", found)
        return found["again"](depth)

    def memory_ids():
        ids = []
        with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb") as memory:
            for line in maps:
                span, mode = line.split()[:2]
                if not mode.startswith("rw"):
                    continue
                start, end = (int(part, 16) for part in span.split("-"))
                try:
                    memory.seek(start)
                    data = memory.read(min(end - start, 1 << 24))
                except OSError:
                    continue
                ids += re.findall(rb'"id": (\\d+), "op"', data)
        return len(ids)

    def memory_through_a_link():
        os.symlink("/proc/self/mem", "memory")
        try:
            with open("memory", "rb") as memory:
                return len(memory.read(0))
        finally:
            os.remove("memory")

    RELAY = """
    import json, os, select, struct, sys
    source, target = int(sys.argv[1]), int(sys.argv[2])
    def exact(size):
        data = b""
        while len(data) < size:
            chunk = os.read(source, size - len(data))
            if not chunk:
                sys.exit(0)
            data += chunk
        return data
    while True:
        answer = json.loads(exact(struct.unpack(">I", exact(4))[0]))
        answer["watches"] = [dict(w, recursion=None) for w in answer.get("watches", [])]
        data = json.dumps(answer).encode()
        # whatever follows the answer (a signature) is passed on as it is
        rest = os.read(source, 64) if select.select([source], [], [], 0.2)[0] else b""
        os.write(target, struct.pack(">I", len(data)) + data + rest)
    """

    def relay():
        import subprocess
        read, write = os.pipe()
        real = os.dup(4)
        subprocess.Popen([sys.executable, "-c", textwrap.dedent(RELAY), str(read), str(real)],
                         pass_fds=(read, real))
        os.dup2(write, 4)
        os.close(read)
        os.close(write)
        return "relayed"
''')


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    box = Sandbox()
    yield box
    box.close()


def guard_worker(sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory) -> Worker:
    folder = tmp_path_factory.mktemp("guard")
    (folder / "driver.py").write_text(DRIVER, encoding="utf-8")
    workspace = folder / "workspace"
    workspace.mkdir()
    (workspace / "student.py").write_text(STUDENT, encoding="utf-8")
    return sandbox.worker(workspace, folder / "driver.py", Limits(wall_seconds=20), "guard")


@pytest.fixture(scope="module")
def worker(sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory):
    with guard_worker(sandbox, tmp_path_factory) as made:
        yield made


def refused(worker, name: str, *args: object) -> str:
    with pytest.raises(StudentCrash) as caught:
        worker.call("run", name, *args)
    return str(caught.value)


def test_honest_frame_uses_of_the_standard_library_still_work(worker):
    assert worker.call("run", "honest") == [1, 3, True]
    assert "refused" in worker.call("run", "inspect_stack")


@pytest.mark.parametrize(("name", "reason"), [
    ("setprofile_off", "switch off the grader's recursion check (sys.setprofile)"),
    ("settrace_off", "switch off the grader's recursion check (sys.settrace)"),
    ("getframe", "look at the grader's call stack (sys._getframe)"),
    ("traceback_frame", "look at the grader's call stack (tb_frame)"),
    ("gc_objects", "search the grader's memory"),
    ("ctypes_memory", "ctypes"),
    ("fresh_sys", "fresh copy of the module 'sys'"),
    ("spoof_filename", "pass itself off"),
    ("thread_left", "left a thread running"),
])
def test_a_refused_call_is_the_students_failure_with_a_plain_reason(worker, name, reason):
    message = refused(worker, name)
    assert reason in message and "the grader refused it" in message, message
    assert worker.call("run", "honest") == [1, 3, True]  # the next call gets a fresh worker


def test_signal_handlers_get_no_frame(worker):
    assert worker.call("run", "signal_frame") == "[None]"


def test_answers_forged_on_every_fd_are_caught(sandbox, tmp_path_factory):
    """And the operation that forged is not run again by that worker: its later calls, of
    any program, fail with the same words (only code writing into the pipe forges)."""
    with guard_worker(sandbox, tmp_path_factory) as own:
        message = refused(own, "forge_every_fd")
        assert "private answer channel" in message
        assert refused(own, "honest") == message


def test_the_recursion_watch_cannot_be_switched_off_or_ended_early(worker):
    assert worker.call("watched", "recurse", 0)["recursion"] is None
    assert worker.watches == [{"scope": "student.py", "recursion": None, "intact": True}]
    assert worker.call("watched", "recurse", 3)["recursion"] == "recurse"
    assert worker.watches[0]["recursion"] == "recurse"
    for name in ("recurse_switching_off", "end_the_watch"):
        with pytest.raises(StudentCrash, match="switch off the grader's recursion check"):
            worker.call("watched", name, 3)


@pytest.mark.parametrize("maker", ["frozen_named", "frozen_renamed"])
def test_code_named_frozen_is_not_taken_for_pythons_own(worker, maker):
    """A code object named ``<frozen ...>`` and called by the driver used to get every frame,
    ``serve``'s request id included; code is now told apart by identity, not by name."""
    with pytest.raises(StudentCrash) as caught:
        worker.call("made", maker)
    message = str(caught.value)
    assert "call stack" in message or "pass itself off" in message, message
    assert worker.call("run", "honest") == [1, 3, True]


def test_the_watch_sees_recursion_defined_through_exec(worker):
    assert worker.call("watched", "exec_recursion", 3)["recursion"] == "again"
    assert worker.watches[0]["recursion"] == "again"


def test_the_worker_memory_is_closed_to_its_own_code(worker):
    assert "grader's memory" in refused(worker, "memory_ids")


def test_the_worker_is_not_dumpable(worker):
    """Past the guard's check of the name, the kernel refuses: the worker made itself
    non-dumpable, so its /proc/self/mem is root's."""
    with pytest.raises(StudentError, match="Permission denied"):
        worker.call("run", "memory_through_a_link")


def test_a_relay_process_cannot_rewrite_answers(sandbox, tmp_path_factory):
    """The relay rewrites the answer of the call that started it: caught, and that operation
    is not run again; another operation runs in a fresh worker, the relay gone with the old."""
    with guard_worker(sandbox, tmp_path_factory) as own:
        with pytest.raises(StudentCrash, match="private answer channel") as caught:
            own.call("run", "relay")
        assert refused(own, "honest") == str(caught.value)
        assert own.call("watched", "recurse", 3)["recursion"] == "recurse"
        assert own.watches[0]["recursion"] == "recurse"


@pytest.mark.skipif(os.geteuid() != 0, reason="files are told apart by sandbox uid as root")
def test_files_left_in_shared_temp_folders_are_removed(tmp_path: Path):
    """Under bubblewrap /tmp is the sandbox's own; the rlimits fallback shares the host's."""
    (tmp_path / "driver.py").write_text(DRIVER, encoding="utf-8")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "student.py").write_text(STUDENT, encoding="utf-8")
    box = Sandbox(Isolation.RLIMITS)
    try:
        with box.worker(workspace, tmp_path / "driver.py", Limits(), "temp") as fallback:
            uid = fallback.call("run", "leave_temp_files")
            left = [Path(folder, f"left-by-{uid}") for folder in ("/tmp", "/dev/shm")]
            assert all(path.exists() for path in left)
        assert not any(path.exists() for path in left)
    finally:
        box.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="permissions bind sandbox uids only as root")
def test_the_fallback_closes_hidden_trees_and_scratch_copies(tmp_path: Path):
    (tmp_path / "reference_solutions").mkdir(mode=0o755)
    closed = close_hidden_trees(tmp_path)
    assert [path for path in closed if tmp_path in path.parents] == \
        [tmp_path / "reference_solutions"]
    assert (tmp_path / "reference_solutions").stat().st_mode & 0o777 == 0o750
    box = Sandbox()
    try:
        assert box.root.stat().st_mode & 0o777 == 0o711
        uid = box.acquire_uid()
        scratch = box.scratch_copy(tmp_path / "reference_solutions", uid)
        assert (scratch.stat().st_uid, scratch.stat().st_mode & 0o777) == (uid, 0o700)
        box.release_uid(uid)
    finally:
        box.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="permissions bind sandbox uids only as root")
def test_the_fallback_closes_the_trees_of_the_root_the_pack_reads(tmp_path: Path):
    """A wheel install finds its packs and their trees through ``GRADERS_ROOT``, not beside the
    engine: the fallback closed only the folders beside the engine (site-packages), and left the
    reference solutions, hidden tests and golden files a wheel install grades with open to every
    sandbox uid. Here the toy root (tests/toy) plays that root."""
    toy = Path(__file__).resolve().parents[1] / "toy"
    trees = [toy / tree for tree in ("reference_solutions", "fixtures", "packs")]
    for tree in trees:
        tree.chmod(0o755)  # as git leaves them
    pack = get_pack("subtract_square", toy)
    sample = pack.fixtures_dir / "submissions" / "correct"
    [result] = grade_batch(BatchRequest(pack=pack, sources=[sample],
                                        isolation=Isolation.RLIMITS)).results
    assert result.status == "graded" and result.isolation == "rlimits"
    assert [tree for tree in trees if tree.stat().st_mode & 0o007] == []
