"""The student kit's launcher: a plain child interpreter with a time limit, no sandbox.

It is the student's own machine, so there is nothing to protect from their code; what
matters is that a loop cannot hang the pre-check and that answers cross as plain data, through
the one :class:`~graders.sandbox.worker.Worker` and its protocol. Standard library only
(portable to Windows: the pipes are the child's stdin and stdout, read by a thread), so the kit
vendors it as it is; the child's side is :mod:`graders.sandbox.plain_child`.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from graders.sandbox.isolation import SANDBOX_ROOT, Limits
from graders.sandbox.worker import worker_lifetime_limits

CHILD = "plain_child.py"  # in the harness folder, beside child.py and the pack's driver
ERRORS_KEPT = 65536  # bytes of the child's stderr kept for a crash's account


def child_environment() -> dict[str, str]:
    """This interpreter's environment, as the instructor's sandbox sets what matters."""
    env = dict(os.environ)
    env.update(PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1", PYTHONIOENCODING="utf-8",
               PYTHONUTF8="1")
    env.pop("PYTHONPATH", None)
    return env


def posix_limits(limits: Limits) -> Callable[[], None] | None:
    """What runs between fork and exec: the CPU limit and a session of its own (POSIX)."""
    if os.name != "posix":
        return None

    def apply() -> None:
        import resource  # noqa: PLC0415 - POSIX only

        # A second of grace, as in the instructor's sandbox: with equal CPU and wall limits
        # the wall clock decides, so a looping program is out of time (and the runs after it
        # are not waited for), not killed by the CPU limit a moment earlier.
        cpu = int(limits.cpu_seconds)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu + 1, cpu + 2))
        os.setsid()

    return apply


def kill_tree(process: subprocess.Popen) -> None:
    """Kill ``process`` and, on POSIX, its whole session."""
    if process.poll() is not None:
        return
    try:
        if os.name == "posix":
            os.killpg(process.pid, 9)
        else:
            process.kill()
    except OSError:
        process.kill()
    process.wait()


def scratch_copy(workspace: Path, extra: Mapping[str, Path] | None = None) -> Path:
    """A fresh copy of ``workspace`` (and ``extra`` files) for one process."""
    target = Path(tempfile.mkdtemp(prefix="precheck-run-"))
    shutil.copytree(workspace, target, dirs_exist_ok=True)
    for name, source in (extra or {}).items():
        shutil.copyfile(source, target / name)
    return target


def as_in_sandbox(value: Any, scratch: Path) -> Any:
    """Text naming the scratch copy as the instructor's sandbox names it (``/sandbox``), so
    tracebacks and messages read exactly as in the instructor's report."""
    if isinstance(value, str):
        for form in {str(scratch), str(scratch.resolve())}:
            value = value.replace(form + os.sep, SANDBOX_ROOT + "/").replace(form, SANDBOX_ROOT)
        return value
    if isinstance(value, list):
        return [as_in_sandbox(item, scratch) for item in value]
    if isinstance(value, dict):
        return {key: as_in_sandbox(item, scratch) for key, item in value.items()}
    return value


class PlainLauncher:
    """Starts each worker as a plain child interpreter of this one."""

    def start(self, workspace: Path, harness: Path, limits: Limits) -> PlainLink:
        return PlainLink(workspace, harness, limits)


class PlainLink:
    """One child interpreter: requests on its stdin, answers on its stdout."""

    def __init__(self, workspace: Path, harness: Path, limits: Limits) -> None:
        self.scratch = scratch_copy(workspace)
        env = child_environment()
        env["GRADER_OUTPUT_LIMIT"] = str(limits.output_bytes)
        self.process = subprocess.Popen(  # noqa: S603 - the worker loop of the harness
            [sys.executable, "-I", str(harness / CHILD)], cwd=self.scratch,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
            preexec_fn=posix_limits(worker_lifetime_limits(limits)))  # noqa: PLW1509
        self.chunks: queue.Queue[bytes] = queue.Queue()
        self.pending = bytearray()
        self.errors: list[bytes] = []
        self.finished = False
        assert self.process.stdout is not None and self.process.stderr is not None
        self.threads = [
            threading.Thread(target=self._read_answers, args=(self.process.stdout,), daemon=True),
            threading.Thread(target=self._keep_errors, args=(self.process.stderr,), daemon=True),
        ]
        for thread in self.threads:
            thread.start()

    def _read_answers(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := stream.read1(65536):  # type: ignore[attr-defined]
                self.chunks.put(chunk)
        self.chunks.put(b"")  # the end

    def _keep_errors(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := stream.read1(4096):  # type: ignore[attr-defined]
                if sum(map(len, self.errors)) < ERRORS_KEPT:
                    self.errors.append(chunk)

    @property
    def flooded(self) -> bool:
        return False  # what the child prints in a call is capped by the child itself

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read(self, size: int, deadline: float) -> bytes | str | None:
        while len(self.pending) < size:
            if self.finished:
                return None
            try:
                chunk = self.chunks.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return "timeout"
            self.finished = not chunk
            self.pending += chunk
        answer = bytes(self.pending[:size])
        del self.pending[:size]
        return answer

    def ended(self) -> int | None:
        try:
            status: int | None = self.process.wait(1.0)
        except subprocess.TimeoutExpired:
            kill_tree(self.process)
            status = self.process.returncode
        self.threads[1].join(1.0)
        return status

    def stdout(self) -> str:
        return ""  # the child's stdout is the answer pipe; what it prints goes to stderr

    def stderr(self) -> str:
        return b"".join(self.errors).decode("utf-8", "replace")

    def as_seen(self, value: Any) -> Any:
        return as_in_sandbox(value, self.scratch)

    def close(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        kill_tree(self.process)
        shutil.rmtree(self.scratch, ignore_errors=True)
