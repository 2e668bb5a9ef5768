"""Many pre-checks of one kit folder, each a fork of one interpreter that has made the
pre-check's imports once.

`python3 precheck.py FOLDER` spends about half a second importing pytest, Hypothesis, pydantic
and the kit's own modules before it checks anything; the kit-venv test runs it on every sample
of every pack. Here the kit's Python imports them once (in the kit folder, as the pre-check
does), then forks a child per pre-check: the child starts from that state, which is what a
fresh `python3 precheck.py` holds once its imports are done, changes to nothing its parent
keeps, and runs `precheck.py` as `__main__` in the kit folder with its own environment, argv,
output file and time limit. What a fork shares that fresh processes would not: the hash seed
(no verdict may depend on the order of a set of strings anyway). Each child writes the
command of every process it starts (:data:`COUNT_STARTS`, as a fresh pre-check of
:data:`tests.kit.test_kit_venv.COUNTING` does).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

# Script text: ``count_starts()`` makes every later ``subprocess.Popen`` note its argv in the
# list it returns (the pre-check starts its processes through it).
COUNT_STARTS = """
import subprocess

def count_starts():
    starts = []
    class Counted(subprocess.Popen):
        def __init__(self, args, *rest, **named):
            starts.append([str(arg) for arg in args])
            super().__init__(args, *rest, **named)
    subprocess.Popen = Counted
    return starts
"""
SERVER = COUNT_STARTS + """
import json, os, runpy, signal, sys, traceback
sys.path.insert(0, os.getcwd())
import hypothesis, pytest  # the order precheck.py imports them in
import _precheck.main  # the kit's engine modules, through the module the kit's conftest loads
HOME = os.getcwd()

def serve(request):
    signal.alarm(request["seconds"])  # a pre-check that hangs is stopped, as a timeout
    os.chdir(HOME)
    os.environ.clear()
    os.environ.update(request["env"])
    out = os.open(request["output"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    starts = count_starts()
    sys.argv = ["precheck.py", *request["args"]]
    code = 0
    try:
        runpy.run_path("precheck.py", run_name="__main__")
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (stop.code is not None)
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
    except BaseException:  # as a fresh interpreter ends: its traceback, status 1
        traceback.print_exc()
        code = 1
    finally:
        with open(os.environ["PRECHECK_STARTS"], "w", encoding="utf-8") as written:
            json.dump(starts, written)
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)

for line in sys.stdin:
    request = json.loads(line)
    child = os.fork()
    if child == 0:
        try:
            serve(request)
        finally:
            os._exit(70)
    _, status = os.waitpid(child, 0)
    print(json.dumps({"code": os.waitstatus_to_exitcode(status)}), flush=True)
"""


class ForkedPrechecks:
    """Pre-checks of the kit folder ``kit`` by the kit's ``python``, each a fork (see the
    module docstring). Not for two threads at once: one per thread."""

    def __init__(self, python: Path, kit: Path, env: dict[str, str]) -> None:
        self.server = subprocess.Popen([str(python), "-c", SERVER], cwd=kit, env=env,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True)

    def run(self, args: list[str], env: dict[str, str], out: Path,
            seconds: int = 600) -> tuple[int, str, list[list[str]]]:
        """``python3 precheck.py ARGS`` with ``env``: its exit status (negative: the signal
        that stopped it), what it printed (kept in ``out``), and the processes it started
        (written to ``$PRECHECK_STARTS`` of ``env``)."""
        assert self.server.stdin is not None and self.server.stdout is not None
        printed, starts = out / "printed.txt", Path(env["PRECHECK_STARTS"])
        starts.unlink(missing_ok=True)
        request = {"args": args, "env": env, "output": str(printed), "seconds": seconds}
        self.server.stdin.write(json.dumps(request) + "\n")
        self.server.stdin.flush()
        answer = self.server.stdout.readline()
        if not answer:
            try:
                status = self.server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                status = None
            raise AssertionError(f"the pre-check server ended (exit status {status})")
        started = json.loads(starts.read_text(encoding="utf-8")) if starts.is_file() else []
        return (json.loads(answer)["code"], printed.read_text(encoding="utf-8", errors="replace"),
                started)

    def close(self) -> None:
        if self.server.stdin is not None:
            self.server.stdin.close()
        try:
            self.server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()
        if self.server.stdout is not None:
            self.server.stdout.close()


def without_interpreter_settings(environ: dict[str, str] | os._Environ[str]) -> dict[str, str]:
    """The environment of a pre-check: this process's, without its Python's settings."""
    return {k: v for k, v in environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
