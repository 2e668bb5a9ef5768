"""Parent side of the program server: a student's whole programs run in ONE sandbox.

A pack that runs a student's program many times (one pack runs 27 per student) used to pay a
bubblewrap and an interpreter per run. :class:`ProgramServer` starts one sandbox per workspace
with ``program_server.py`` in it; each run is a child forked by that server on a clean copy of
the workspace, with its own stdin, stdout and stderr pipes (created and drained here, capped
as :meth:`Sandbox.run` caps them), its own CPU limit, and the wall clock kept here. A run that
times out or floods its output stops the whole sandbox, as a fresh run's does; the next run
starts a new server.

A run comes back as ``None`` when it must be a fresh process instead (the caller then runs it
so): a command that is not ``python3 prog.py ...``, a server that declined the run or died
during it (a program that killed its parent, say), or a workspace whose source uses what a
forked child cannot show as a fresh interpreter does (:data:`FRESH_MARKERS`).
"""

from __future__ import annotations

import ast
import base64
import contextlib
import dataclasses
import json
import os
import select
import signal
import socket
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, BinaryIO

from graders.sandbox.isolation import HARNESS_ROOT, Limits
from graders.sandbox.process import CappedReader, SandboxedProcess

if TYPE_CHECKING:
    from graders.sandbox import RunResult, Sandbox

SERVER_SOURCE = Path(__file__).with_name("program_server.py")
STARTUP_SECONDS = 15.0
MAX_PACKET = 150_000  # one request (argv and extra files); larger ones run fresh
MAX_DEATHS = 2  # a workspace whose server died this often runs every program fresh
MAX_PARSED = 1_000_000  # bytes of one file read for its imports (a larger one is not code)
SERVER_MB = 64  # the server's own memory, beside a run's (each run's child has the run's cap)
# Source text that makes a workspace's programs run fresh. A forked child differs from a fresh
# interpreter only in what these reach: its frames and the stack below it, the pid and parent
# (the server) and its process group, the process count (the server is one), the modules the
# server loaded, the recursion limit (raised by the server's one frame), Ctrl-C's exit, the
# collector (the server's objects are frozen in its permanent generation).
FRESH_MARKERS = (
    b"_getframe", b"inspect", b"f_back", b"tb_frame", b"gi_frame", b"print_stack",
    b"format_stack", b"extract_stack", b"walk_stack", b"faulthandler", b"recursionlimit",
    b"sys.modules", b"getpid", b"getppid", b"kill", b"signal", b"setsid", b"getsid",
    b"getpgid", b"getpgrp", b"setpgid", b"resource", b"getrlimit", b"ctypes", b"/proc",
    b"KeyboardInterrupt", b"subprocess", b"system(", b"popen", b"spawn", b"os.exec", b"gc.",
    b"import gc", b"from gc", b"ptrace", b"prctl", b"orig_argv", b"getrusage", b"process_time",
)


def serves(command: Sequence[str]) -> bool:
    """Whether ``command`` is ``python3 prog.py ...``: a program the server can run."""
    if len(command) < 2 or command[0] != "python3":
        return False
    script = PurePosixPath(command[1])
    return (script.suffix == ".py" and not script.is_absolute() and ".." not in script.parts
            and not command[1].startswith("-"))


def preloads(workspace: Path) -> list[str]:
    """The modules the server imports once before its first run: every top-level name the
    workspace's Python files import that is neither the standard library's nor one of the
    workspace's own files or folders (sympy, from the course's environment). A name the
    environment lacks is skipped by the server; a run then fails to import it as a fresh one
    does."""
    local = {entry.name.removesuffix(".py") for entry in workspace.iterdir()}
    names: set[str] = set()
    for path in sorted(workspace.rglob("*.py")):
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_PARSED:
            continue
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError, RecursionError, MemoryError):  # not Python it can read
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.partition(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.partition(".")[0])
    return sorted(name for name in names - local if name not in sys.stdlib_module_names)


def needs_fresh(workspace: Path) -> str | None:
    """The first :data:`FRESH_MARKERS` word in the workspace's Python files, or None."""
    for path in sorted(workspace.rglob("*.py")):
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        for marker in FRESH_MARKERS:
            if marker in data:
                return f"{path.name} uses {marker.decode()}"
    return None


def server_limits(limits: Limits) -> Limits:
    """The server's sandbox: a lifetime CPU budget and room for the server's own memory (each
    run's child sets the run's own), and one process more than a run may have, since the
    server is one of them."""
    return dataclasses.replace(limits, cpu_seconds=max(120, 20 * limits.cpu_seconds),
                               memory_mb=limits.memory_mb + SERVER_MB,
                               processes=limits.processes + 1)


@dataclasses.dataclass
class _Run:
    """One run in progress: its output readers and whether it flooded."""

    out: CappedReader
    err: CappedReader
    streams: list[BinaryIO]
    threads: list[threading.Thread] = dataclasses.field(default_factory=list)
    flooded: bool = False


class ProgramServer:
    """The program server of one workspace under one set of limits."""

    def __init__(self, sandbox: Sandbox, workspace: Path, limits: Limits) -> None:
        self.sandbox = sandbox
        self.workspace = workspace
        self.limits = limits
        self.process: SandboxedProcess | None = None
        self.channel: socket.socket | None = None
        self.uid: int | None = None
        self.scratch: Path | None = None
        self.deaths = 0
        self.fresh_because = needs_fresh(workspace)
        self.preload = [] if self.fresh_because else preloads(workspace)
        self.preloaded: list[str] = []  # what the server kept imported for its runs
        self.runs = 0

    def run(
        self, command: Sequence[str], *, stdin: str = "", timeout: float | None = None,
        extra: Mapping[str, Path] | None = None,
    ) -> RunResult | None:
        """Run ``command`` in a forked child; None when it must run as a fresh process."""
        if self.fresh_because or self.deaths >= MAX_DEATHS or not serves(command):
            return None
        payload = json.dumps({
            "argv": list(command), "cpu": self.limits.cpu_seconds,
            "memory": self.limits.memory_mb * 1024 * 1024,
            "extra": {name: base64.b64encode(Path(source).read_bytes()).decode()
                      for name, source in (extra or {}).items()},
        }).encode()
        if len(payload) > MAX_PACKET or (self.channel is None and not self._start()):
            return None
        return self._run(command, payload, stdin, timeout)

    def _run(
        self, command: Sequence[str], payload: bytes, stdin: str, timeout: float | None,
    ) -> RunResult | None:
        assert self.channel is not None
        stdin_read, stdin_write = os.pipe()
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        started = time.monotonic()
        try:
            socket.send_fds(self.channel, [payload], [stdin_read, out_write, err_write])
        except OSError:
            for fd in (stdin_write, out_read, err_read):
                os.close(fd)
            self._died()
            return None
        finally:
            for fd in (stdin_read, out_write, err_write):
                os.close(fd)
        run = self._drain(out_read, err_read)
        _feed(stdin_write, stdin)
        limit = timeout if timeout is not None else self.limits.wall_seconds
        answer = self._answer(started + limit)
        if isinstance(answer, dict) and "decline" in answer:
            self._join(run)
            return None
        timed_out = answer == "timeout"
        if timed_out or run.flooded:
            self.close()
        elif not isinstance(answer, dict) or not isinstance(answer.get("exit"), int):
            self._died()  # stops what is left of the run before its output is joined
            self._join(run)
            return None
        self._join(run)
        code = None if timed_out else -signal.SIGKILL if run.flooded else _exit_of(answer)
        self.runs += 1
        from graders.sandbox import RunResult  # the package imports this module

        return RunResult(
            argv=list(command), stdout=run.out.text(), stderr=run.err.text(), exit_code=code,
            timed_out=timed_out, output_truncated=run.out.dropped + run.err.dropped > 0,
            seconds=time.monotonic() - started, stopped_for_output=run.flooded and not timed_out,
        )

    def _drain(self, out_read: int, err_read: int) -> _Run:
        cap = self.limits.output_bytes
        run = _Run(CappedReader(cap), CappedReader(cap), [_reader(out_read), _reader(err_read)])

        def flood() -> None:  # from a draining thread: stop the sandbox, as a fresh run's
            run.flooded = True
            if self.process is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.process.popen.pid, signal.SIGKILL)

        run.out.on_overflow = run.err.on_overflow = flood
        run.threads = [run.out.drain(run.streams[0]), run.err.drain(run.streams[1])]
        return run

    @staticmethod
    def _join(run: _Run) -> None:
        for thread in run.threads:
            thread.join(2.0)
        for stream in run.streams:
            with contextlib.suppress(OSError):
                stream.close()

    def _answer(self, deadline: float) -> dict[str, Any] | str:
        """The server's next message, ``"timeout"`` past ``deadline``, ``"died"`` at its end."""
        assert self.channel is not None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            ready, _, _ = select.select([self.channel], [], [], left)
            if not ready:
                continue
            try:
                packet = self.channel.recv(65536)
            except OSError:
                return "died"
            if not packet:
                return "died"
            try:
                message = json.loads(packet)
            except ValueError:
                return "died"
            return message if isinstance(message, dict) else "died"

    def _died(self) -> None:
        """The server ended during a run (a program killed it): the run goes fresh."""
        self.deaths += 1
        self.close()

    def _start(self) -> bool:
        self.uid = self.sandbox.acquire_uid()
        self.scratch = self.sandbox.scratch_copy(self.workspace, self.uid)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 2 * MAX_PACKET)
        self.channel = ours
        try:
            launch = self.sandbox.launch(
                ["python3", f"{HARNESS_ROOT}/{SERVER_SOURCE.name}", *self.preload], self.scratch,
                server_limits(self.limits), uid=self.uid, harness=self.sandbox.program_harness(),
                extra_fds=(theirs.fileno(),))
            self.process = SandboxedProcess(launch, self.limits.output_bytes, stdin=False,
                                            fds=(theirs.fileno(),))
        finally:
            theirs.close()
        ready = self._answer(time.monotonic() + STARTUP_SECONDS)
        if isinstance(ready, dict) and "unforkable" in ready and self.preload:
            self.close()  # a preloaded module started a thread: a server without them
            self.preload = []
            return self._start()
        if not isinstance(ready, dict) or ready.get("ready") is not True:
            self.deaths = MAX_DEATHS  # a server that cannot start: every run goes fresh
            self.close()
            return False
        preloaded = ready.get("preloaded")
        self.preloaded = [str(n) for n in preloaded] if isinstance(preloaded, list) else []
        return True

    def close(self) -> None:
        """Stop the server and everything under its uid; remove its scratch copy."""
        if self.channel is not None:
            self.channel.close()
            self.channel = None
        self.sandbox.end(self.process, self.uid, self.scratch)
        self.process = self.uid = self.scratch = None


def _exit_of(answer: dict[str, Any] | str) -> int | None:
    status = answer.get("exit") if isinstance(answer, dict) else None
    return status if isinstance(status, int) else None


def _reader(fd: int) -> BinaryIO:
    return open(fd, "rb")  # noqa: SIM115 - closed by the draining thread's end


def _feed(fd: int, text: str) -> None:
    """Write the run's stdin and close it (a program may end without reading it)."""
    view = memoryview(text.encode("utf-8"))
    try:
        while view:
            view = view[os.write(fd, view):]
    except OSError:
        pass
    finally:
        os.close(fd)
