# mypy: ignore-errors
"""Student code in the pre-check: a child interpreter with a time limit, no sandbox.

It is the student's own machine, so there is nothing to protect from their code; what
matters is that a loop cannot hang the pre-check and that answers cross as plain data, with
the same protocol, limits and wording as the instructor's sandboxed run (the message texts
and ``RunResult`` are the engine's own, copied into ``base`` and ``worker_text``).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import secrets
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _precheck.errors import GraderError, StudentCrash, StudentError
from _precheck.sandbox.base import RunResult
from _precheck.sandbox.isolation import HARNESS_ROOT, SANDBOX_ROOT, TOOLS_ROOT, Limits
from _precheck.sandbox.worker_text import (
    MAX_TIMEOUTS,
    STARTUP_SECONDS,
    _describe_exception,
    _describe_exit,
    _malformed,
    _timed_out,
    worker_lifetime_limits,
)

HARNESS = Path(__file__).resolve().parent.parent / "harness"
__all__ = ["Limits", "RunResult", "Sandbox", "Worker"]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1", PYTHONIOENCODING="utf-8",
               PYTHONUTF8="1")
    env.pop("PYTHONPATH", None)
    return env


def _posix_limits(limits: Limits):
    if os.name != "posix":
        return None

    def apply() -> None:
        import resource  # noqa: PLC0415 - POSIX only

        cpu = int(limits.cpu_seconds)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        os.setsid()

    return apply


def _command(argv: list[str], harness: Path | None) -> list[str]:
    """The argv of the instructor's sandbox, as this machine runs it."""
    out = []
    tools = os.environ.get("PRECHECK_TOOLS_DIR")  # `grade kit` recording only
    for arg in argv:
        if tools and arg.startswith(TOOLS_ROOT + "/"):
            out.append(str(Path(tools) / arg[len(TOOLS_ROOT) + 1:]))
        elif arg in ("python3", "python") or (arg.startswith(TOOLS_ROOT + "/")
                                             and arg.endswith("/bin/python")):
            out.append(sys.executable)
        elif arg.startswith(HARNESS_ROOT + "/"):
            out.append(str((harness or HARNESS) / arg[len(HARNESS_ROOT) + 1:]))
        else:
            out.append(arg)
    return out


def _scratch(workspace: Path, extra: dict[str, Path] | None = None) -> Path:
    target = Path(tempfile.mkdtemp(prefix="precheck-run-"))
    shutil.copytree(workspace, target, dirs_exist_ok=True)
    for name, source in (extra or {}).items():
        shutil.copyfile(source, target / name)
    return target


def _as_in_sandbox(value: Any, scratch: Path) -> Any:
    """Text naming the scratch copy as the instructor's sandbox names it (``/sandbox``), so
    tracebacks and messages read exactly as in the instructor's report."""
    if isinstance(value, str):
        for form in {str(scratch), str(scratch.resolve())}:
            value = value.replace(form + os.sep, SANDBOX_ROOT + "/").replace(form, SANDBOX_ROOT)
        return value
    if isinstance(value, list):
        return [_as_in_sandbox(item, scratch) for item in value]
    if isinstance(value, dict):
        return {key: _as_in_sandbox(item, scratch) for key, item in value.items()}
    return value


def _kill(process: subprocess.Popen) -> None:
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


class Sandbox:
    """The pre-check's stand-in for the engine's sandbox: same calls, plain processes."""

    def worker(self, workspace: Path, driver: Path, limits: Limits, label: str) -> Worker:
        return Worker(workspace, limits, label)

    def harness_for(self, driver: Path) -> Path:
        return HARNESS

    def run(self, workspace: Path, command, limits: Limits, *, stdin: str = "",
            timeout: float | None = None, extra=None, harness: Path | None = None,
            tools=None) -> RunResult:
        """Run ``command`` once on a fresh copy of ``workspace`` with a wall-clock limit."""
        scratch = _scratch(workspace, extra)
        started = time.monotonic()
        limit = timeout if timeout is not None else limits.wall_seconds
        process = subprocess.Popen(
            _command(list(command), harness), cwd=scratch, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment(),
            preexec_fn=_posix_limits(limits))
        try:
            out, err = process.communicate(stdin.encode("utf-8"), timeout=limit)
            timed_out = False
        except subprocess.TimeoutExpired:
            _kill(process)
            out, err = process.communicate()
            timed_out = True
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        cap = limits.output_bytes
        return RunResult(
            argv=list(command),
            stdout=_as_in_sandbox(out[:cap].decode("utf-8", "replace"), scratch),
            stderr=_as_in_sandbox(err[:cap].decode("utf-8", "replace"), scratch),
            exit_code=None if timed_out else process.returncode,
            timed_out=timed_out,
            output_truncated=len(out) > cap or len(err) > cap,
            seconds=time.monotonic() - started,
        )


class Worker:
    """Calls operations of the pack's driver in a child interpreter; returns plain data."""

    def __init__(self, workspace: Path, limits: Limits, label: str) -> None:
        self.workspace, self.limits, self.label = workspace, limits, label
        self.process: subprocess.Popen | None = None
        self.scratch: Path | None = None
        self.answers: queue.Queue = queue.Queue()
        self.errors: list[bytes] = []
        self.calls = self.timeouts = 0

    def start(self) -> None:
        self.scratch = _scratch(self.workspace)
        env = _environment()
        env["GRADER_OUTPUT_LIMIT"] = str(self.limits.output_bytes)
        self.process = subprocess.Popen(
            [sys.executable, "-I", str(HARNESS / "child_main.py")], cwd=self.scratch,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
            preexec_fn=_posix_limits(worker_lifetime_limits(self.limits)))
        self.answers = queue.Queue()
        self.errors = []
        threading.Thread(target=self._read, args=(self.process, self.answers),
                         daemon=True).start()
        threading.Thread(target=self._drain, args=(self.process, self.errors),
                         daemon=True).start()
        ready = self._receive(STARTUP_SECONDS)
        if not isinstance(ready, dict) or not ready.get("ready"):
            detail = b"".join(self.errors).decode("utf-8", "replace")[-2000:]
            self.close()
            raise GraderError(f"the worker for {self.label} did not start: {detail}")

    @staticmethod
    def _read(process: subprocess.Popen, answers: queue.Queue) -> None:
        stream = process.stdout
        while True:
            header = stream.read(4)
            if len(header) < 4:
                answers.put(None)
                return
            (length,) = struct.unpack(">I", header)
            body = stream.read(length)
            try:
                answers.put(json.loads(body.decode("utf-8")))
            except ValueError:
                answers.put({"garbled": True})

    @staticmethod
    def _drain(process: subprocess.Popen, errors: list[bytes]) -> None:
        while chunk := process.stderr.read(4096):
            if sum(map(len, errors)) < 65536:
                errors.append(chunk)

    def _receive(self, seconds: float) -> Any:
        try:
            return self.answers.get(timeout=seconds)
        except queue.Empty:
            return "timeout"

    def close(self) -> None:
        if self.process is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
            _kill(self.process)
            self.process = None
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None

    def call(self, op: str, *args: Any, stdin: str | None = None,
             timeout: float | None = None, **kwargs: Any) -> Any:
        """Run driver operation ``op`` and return its plain value (the engine's contract)."""
        response = self.call_raw(op, *args, stdin=stdin, timeout=timeout, **kwargs)
        if not response.get("ok"):
            error = response.get("error") or {}
            raise StudentError(
                _describe_exception(op, error, self.limits),
                details={"kind": "exception", **error, "stdout": response.get("stdout", "")},
            )
        return response.get("value")

    def call_raw(self, op: str, *args: Any, stdin: str | None = None,
                 timeout: float | None = None, **kwargs: Any) -> dict[str, Any]:
        if self.timeouts >= MAX_TIMEOUTS:
            _timed_out(
                f"`{op}` was not run: your code already ran out of time {self.timeouts} "
                "times, so its remaining calls count as timed out.",
                None,
            )
        if self.process is None:
            self.start()
        self.calls += 1
        request_id = secrets.randbits(62)
        request = {"id": request_id, "op": op, "args": list(args), "kwargs": kwargs,
                   "stdin": stdin, "cpu_seconds": self.limits.cpu_seconds}
        limit = timeout if timeout is not None else self.limits.per_call
        data = json.dumps(request).encode("utf-8")
        try:
            self.process.stdin.write(struct.pack(">I", len(data)) + data)
            self.process.stdin.flush()
        except OSError:
            self._crashed(op)
        response = self._receive(limit)
        if response == "timeout":
            self.timeouts += 1
            self.close()
            _timed_out(
                f"`{op}` did not finish within {limit:g} s and was stopped "
                "(an infinite loop, or a search that is far too slow).",
                limit,
            )
        if response is None:
            self._crashed(op)
        problem = "bytes that are not an answer" if response.get("garbled") else \
            _malformed(response, request_id)
        if not problem:
            response = _as_in_sandbox(response, self.scratch)
        if problem:
            self.close()
            raise StudentCrash(
                f"`{op}`: your code wrote into the grader's private answer channel ({problem}); "
                "the answer was thrown away and your code was stopped.",
                details={"kind": "protocol"},
            )
        return response

    def _crashed(self, op: str):
        process = self.process
        status = None
        if process is not None:
            try:
                status = process.wait(1.0)
            except subprocess.TimeoutExpired:
                _kill(process)
                status = process.returncode
        tail = _as_in_sandbox(b"".join(self.errors).decode("utf-8", "replace")[-1500:],
                              self.scratch) if self.scratch else ""
        self.close()
        raise StudentCrash(
            f"`{op}`: {_describe_exit(status, self.limits, False, tail)}",
            details={"kind": "crash", "exit_status": status, "stderr": tail, "stdout": ""},
        )

