# mypy: ignore-errors
"""Student code in the pre-check: the engine's own :class:`Worker` with the plain launcher (a
child interpreter with a time limit, no sandbox: it is the student's own machine), and one-shot
programs run the same way. ``RunResult`` and every message text are the engine's own."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from _precheck.sandbox.base import RunResult, feed_stdin
from _precheck.sandbox.isolation import HARNESS_ROOT, TOOLS_ROOT, Limits
from _precheck.sandbox.plain_launcher import (
    PlainLauncher,
    as_in_sandbox,
    child_environment,
    kill_tree,
    posix_limits,
    scratch_copy,
)
from _precheck.sandbox.process import CappedReader
from _precheck.sandbox.worker import Worker
from _precheck.tools import answers_dir

HARNESS = Path(__file__).resolve().parent.parent / "harness"
__all__ = ["Limits", "RunResult", "Sandbox", "Worker"]


def _command(argv: list[str], harness: Path | None) -> list[str]:
    """The argv of the instructor's sandbox, as this machine runs it."""
    out = []
    for arg in argv:
        if arg in ("python3", "python") or (arg.startswith(TOOLS_ROOT + "/")
                                           and arg.endswith("/bin/python")):
            out.append(sys.executable)
        elif arg.startswith(HARNESS_ROOT + "/"):
            out.append(str((harness or HARNESS) / arg[len(HARNESS_ROOT) + 1:]))
        else:
            out.append(arg)
    return out


class Sandbox:
    """The pre-check's stand-in for the engine's sandbox: same calls, plain processes."""

    def worker(self, workspace: Path, driver: Path, limits: Limits, label: str) -> Worker:
        return Worker(PlainLauncher(), workspace, HARNESS, limits, label)

    def harness_for(self, driver: Path) -> Path:
        return HARNESS

    def run(self, workspace: Path, command, limits: Limits, *, stdin: str = "",
            timeout: float | None = None, extra=None, harness: Path | None = None,
            tools=None) -> RunResult:
        """Run ``command`` once on a fresh copy of ``workspace`` with a wall-clock limit."""
        scratch = scratch_copy(workspace, extra)
        env = child_environment()
        for name in tools or ():
            # A tool's own cache lives beside its kept answers, so the next pre-check starts
            # warm: mypy's, behind python_ta's type check (a file's entry counts only when its
            # text hashes the same).
            env.setdefault("MYPY_CACHE_DIR", str(answers_dir(name) / "mypy"))
        started = time.monotonic()
        limit = timeout if timeout is not None else limits.wall_seconds
        process = subprocess.Popen(
            _command(list(command), harness), cwd=scratch, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
            preexec_fn=posix_limits(limits))
        # Drained as it comes and capped as the instructor's sandbox caps it: past the cap the
        # program is stopped, never held whole in memory (a print loop fills gigabytes).
        flooded = threading.Event()

        def flood() -> None:
            flooded.set()
            kill_tree(process)

        out, err = (CappedReader(limits.output_bytes, on_overflow=flood) for _ in range(2))
        drains = [out.drain(process.stdout), err.drain(process.stderr)]
        threading.Thread(target=feed_stdin, args=(process.stdin, stdin), daemon=True).start()
        try:
            process.wait(timeout=limit)
            timed_out = False
        except subprocess.TimeoutExpired:
            kill_tree(process)
            timed_out = True
        finally:
            for drain in drains:
                drain.join(5)
            shutil.rmtree(scratch, ignore_errors=True)
        return RunResult(
            argv=list(command),
            stdout=as_in_sandbox(out.text(), scratch),
            stderr=as_in_sandbox(err.text(), scratch),
            exit_code=None if timed_out else process.returncode,
            timed_out=timed_out,
            output_truncated=bool(out.dropped or err.dropped),
            seconds=time.monotonic() - started,
            stopped_for_output=flooded.is_set() and not timed_out,
        )

