"""The program server (graders/sandbox/programs.py, program_server.py): each probe program is
run in the server and as a fresh process, and both must print, exit and be judged alike."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from graders.sandbox import Limits, RunResult, Sandbox
from graders.sandbox.programs import needs_fresh, serves
from tests.serving import serving_sandbox

# Every probe but `hang` ends within a fraction of a second; `hang` runs four times to the clock.
LIMITS = Limits(wall_seconds=2, cpu_seconds=2, memory_mb=256, processes=8, output_kb=64)

PROBES = {
    "identity": """
        import os, sys, __main__
        print(__name__, __file__, sys.argv, sys.path[0], os.getcwd(), __doc__, __spec__)
        print(list(globals())[:9], __main__.__dict__ is globals(), type(__loader__).__name__)
        print(repr(sys.stdin.read()), sys.stdout.line_buffering, sys.stderr.errors, hash("x"))
    """,
    "cwd_and_files": """
        import os
        open("made.txt", "w").write("x")
        with open("helper.py", "a") as handle:
            handle.write("VALUE = 'changed'\\n")
        os.chdir("/tmp")
        print(os.getcwd(), sorted(os.listdir("/sandbox")))
    """,
    "threads_left": """
        import threading, time
        def later():
            time.sleep(0.1)
            print("non-daemon thread done", flush=True)
        threading.Thread(target=later).start()
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
        print("main done")
    """,
    "forks": """
        import os
        pid = os.fork()
        if pid == 0:
            print("child", flush=True)
            os._exit(3)
        print("parent sees", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
    """,
    "memory": """
        blocks = []
        try:
            while True:
                blocks.append(bytearray(32 * 1024 * 1024))
        except MemoryError:
            print("out of memory after", len(blocks), "blocks")
        raise MemoryError("again")
    """,
    "atexit_and_exit": """
        import atexit, sys
        atexit.register(lambda: print("atexit, file kept:", "__file__" in globals()))
        sys.exit("bye")
    """,
    "atexit_after_error": """
        import atexit
        atexit.register(lambda: print("atexit, file kept:", "__file__" in globals()))
        def down(n):
            return down(n + 1)
        down(0)
    """,
    "shadowed_stdlib": """
        import json, base64
        print(json.dumps([1]), base64.MARK)
    """,
    "finalizers_at_exit": """
        import weakref
        class Loud:
            def __init__(self, name):
                self.name, self.me = name, self  # a cycle: only the collector frees it
            def __del__(self):
                print("freed", self.name, flush=True)
        def counting():
            try:
                yield 1
            finally:
                print("generator closed", flush=True)
        Loud("in a cycle")
        started = counting()
        next(started)
        kept = Loud("kept to the end")
        weakref.finalize(kept, print, "finalize callback")
        print("main done")
    """,
    "syntax_error": "def broken(:\n    pass\n",
    "flood": "while True:\n    print('x' * 1000)\n",
    "hang": "while True:\n    pass\n",
    "killed_by_signal": "import os\ngetattr(os, 'ab' + 'ort')()\n",
    "kills_the_server": """
        import os
        getattr(os, 'k' + 'ill')(-1, 9)
        print("still here")
    """,
}


def _workspace(folder: Path, probe: str) -> Path:
    folder.mkdir()
    (folder / "prog.py").write_text(textwrap.dedent(PROBES[probe]).lstrip(), encoding="utf-8")
    (folder / "helper.py").write_text("VALUE = 'pristine'\n", encoding="utf-8")
    (folder / "base64.py").write_text("MARK = 'the student base64'\n", encoding="utf-8")
    return folder


def _seen(result: RunResult) -> tuple[object, ...]:
    return (result.stdout, result.stderr, result.exit_code, result.timed_out,
            result.stopped_for_output, result.output_truncated, result.problem(LIMITS))


@pytest.fixture(scope="module")
def sandbox():
    with serving_sandbox() as box:
        yield box


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_a_served_run_is_a_fresh_run(sandbox, tmp_path, probe):
    workspace = _workspace(tmp_path / "ws", probe)
    assert needs_fresh(workspace) is None
    command = ["python3", "prog.py", "one", "two"]
    for stdin in ("typed\n", ""):  # twice: the second run starts from a clean copy
        served = sandbox.run(workspace, command, LIMITS, stdin=stdin)
        fresh = sandbox.run_fresh(workspace, command, LIMITS, stdin=stdin)
        assert _seen(served) == _seen(fresh)
    if probe == "kills_the_server":
        assert sandbox.served(workspace, LIMITS) == 0  # it ran fresh: the server died under it
    elif probe != "hang":
        assert sandbox.served(workspace, LIMITS) == 2


def test_module_state_and_files_do_not_leak_between_runs(sandbox, tmp_path):
    workspace = _workspace(tmp_path / "ws", "cwd_and_files")
    (workspace / "show.py").write_text(
        "import helper, os\nprint(helper.VALUE, sorted(os.listdir('.')))\n", encoding="utf-8")
    sandbox.run(workspace, ["python3", "prog.py"], LIMITS)
    shown = sandbox.run(workspace, ["python3", "show.py"], LIMITS)
    assert shown.stdout == "pristine ['base64.py', 'helper.py', 'prog.py', 'show.py']\n"
    assert sandbox.served(workspace, LIMITS) == 2


def test_source_that_reaches_the_interpreter_runs_fresh(sandbox, tmp_path):
    workspace = _workspace(tmp_path / "ws", "identity")
    (workspace / "peek.py").write_text("import sys\nprint(sys.getrecursionlimit())\n",
                                       encoding="utf-8")
    assert needs_fresh(workspace) == "peek.py uses recursionlimit"
    assert sandbox.run(workspace, ["python3", "peek.py"], LIMITS).stdout == "1000\n"
    assert sandbox.served(workspace, LIMITS) == 0


def test_source_that_names_the_collector_runs_fresh(tmp_path):
    """The server's objects are frozen in the collector's permanent generation: only source
    that could see it tells; it runs fresh."""
    for source in ("import gc as g\n", "from gc import get_objects\n", "gc.collect()\n"):
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        (folder / "prog.py").write_text(source, encoding="utf-8")
        assert needs_fresh(folder) is not None, source


def test_only_plain_program_commands_are_served():
    assert serves(["python3", "prog.py", "1"]) and serves(["python3", "sub/prog.py"])
    for command in (["python3", "-c", "pass"], ["python3", "/abs.py"], ["python3", "../x.py"],
                    ["python3", "-m", "x"], ["bash", "x.py"], ["python3"]):
        assert not serves(command), command


def test_fresh_option_never_starts_a_server(tmp_path):
    box = Sandbox()
    box.programs = "fresh"
    try:
        workspace = _workspace(tmp_path / "ws", "identity")
        assert box.run(workspace, ["python3", "prog.py"], LIMITS).exit_code == 0
        assert box.served(workspace, LIMITS) == 0
    finally:
        box.close()
