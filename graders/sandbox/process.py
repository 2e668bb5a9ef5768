"""Start a sandboxed process, drain its output with a cap, and kill its whole tree."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from dataclasses import dataclass, field

from graders.sandbox.isolation import Launch


@dataclass
class CappedReader:
    """Drains a pipe in a thread, keeping the first ``limit`` bytes and counting the rest."""

    limit: int
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def drain(self, stream) -> threading.Thread:
        def run() -> None:
            with contextlib.suppress(OSError, ValueError):
                while chunk := stream.read1(65536):
                    room = self.limit - len(self.data)
                    if room > 0:
                        self.data += chunk[:room]
                    self.dropped += max(0, len(chunk) - max(room, 0))

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


class SandboxedProcess:
    """One running sandboxed command with capped stdout/stderr."""

    def __init__(self, launch: Launch, output_limit: int, *, stdin: bool, fds=()) -> None:
        self.launch = launch
        self.out = CappedReader(output_limit)
        self.err = CappedReader(output_limit)
        self.popen = subprocess.Popen(  # noqa: S603 - the sandbox itself
            launch.argv,
            cwd=launch.cwd,
            env=launch.env,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=launch.preexec,  # noqa: PLW1509 - limits must be set between fork and exec
            pass_fds=(3, 4) if fds else (),
            start_new_session=True,
        )
        self._threads = [self.out.drain(self.popen.stdout), self.err.drain(self.popen.stderr)]

    def kill(self) -> None:
        """SIGKILL the whole tree: bwrap's pid namespace dies with it; else its process group."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.popen.kill()
        self.popen.wait()
        self.join_output()

    def join_output(self, timeout: float = 2.0) -> None:
        for thread in self._threads:
            thread.join(timeout)

    @property
    def output_dropped(self) -> int:
        return self.out.dropped + self.err.dropped


def sweep_uid(uid: int) -> int:
    """Kill every process left running under the sandbox ``uid`` (escapes from the group).

    Only meaningful when the grader is root and each live sandbox has its own uid.
    """
    if os.geteuid() != 0:
        return 0
    killed = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if entry.stat().st_uid == uid:
                os.kill(int(entry.name), signal.SIGKILL)
                killed += 1
    return killed
