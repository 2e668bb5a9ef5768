"""The instructor's launcher: the keeper under the sandbox's isolation (bubblewrap where the
machine has it), its grader pipes at fds 3 and 4 (see :mod:`graders.sandbox.keeper`)."""

from __future__ import annotations

import contextlib
import os
import select
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graders.sandbox.isolation import HARNESS_ROOT, Limits
from graders.sandbox.process import SandboxedProcess
from graders.sandbox.worker import worker_lifetime_limits

if TYPE_CHECKING:
    from graders.sandbox import Sandbox


class KeeperLauncher:
    """Starts each worker as a keeper in a fresh scratch copy, under its own uid."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox

    def start(self, workspace: Path, harness: Path, limits: Limits) -> KeeperLink:
        return KeeperLink(self.sandbox, workspace, harness, limits)


class KeeperLink:
    """One keeper process and the grader's ends of its pipes."""

    def __init__(self, sandbox: Sandbox, workspace: Path, harness: Path, limits: Limits) -> None:
        self.sandbox = sandbox
        self.process: SandboxedProcess | None = None
        self.scratch: Path | None = None
        self.requests = self.responses = -1
        self.uid: int | None = sandbox.acquire_uid()
        try:
            self.scratch = sandbox.scratch_copy(workspace, self.uid)
        except BaseException:
            self.close()
            raise
        request_read, self.requests = os.pipe()
        self.responses, response_write = os.pipe()
        try:
            launch = sandbox.launch(
                ["python3", "-I", "-S", f"{HARNESS_ROOT}/keeper.py"],
                self.scratch,
                worker_lifetime_limits(limits),
                uid=self.uid,
                harness=harness,
                extra_fds=(request_read, response_write),
            )
            self.process = SandboxedProcess(
                launch, limits.output_bytes, stdin=False, fds=(request_read, response_write)
            )
        except BaseException:
            self.close()
            raise
        finally:
            os.close(request_read)
            os.close(response_write)

    @property
    def flooded(self) -> bool:
        return self.process is not None and self.process.flooded

    def send(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.requests, view):]

    def read(self, size: int, deadline: float) -> bytes | str | None:
        buffer = bytearray()
        while len(buffer) < size:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "timeout"
            ready, _, _ = select.select([self.responses], [], [], remaining)
            if not ready:
                return "timeout"
            chunk = os.read(self.responses, size - len(buffer))
            if not chunk:
                return None
            buffer += chunk
        return bytes(buffer)

    def ended(self) -> int | None:
        process = self.process
        if process is None:
            return None
        status = None
        with contextlib.suppress(Exception):
            status = process.popen.wait(1.0)
        if status is None:
            process.kill()
            status = process.popen.returncode
        process.join_output(1.0)  # the last lines (the guard's reason) may still be in flight
        return status

    def stdout(self) -> str:
        return self.process.out.text() if self.process else ""

    def stderr(self) -> str:
        return self.process.err.text() if self.process else ""

    def as_seen(self, value: Any) -> Any:
        return value  # the sandbox already names its folder /sandbox

    def close(self) -> None:
        for fd in (self.requests, self.responses):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.requests = self.responses = -1
        self.sandbox.end(self.process, self.uid, self.scratch)
        self.process = self.uid = self.scratch = None
