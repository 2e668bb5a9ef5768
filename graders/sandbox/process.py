"""Start a sandboxed process, drain its output with a cap, and kill its whole tree."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from graders.sandbox.isolation import Launch, Limits


@dataclass
class CappedReader:
    """Drains a pipe in a thread, keeping the first ``limit`` bytes and counting the rest.

    ``on_overflow`` is called once, from the draining thread, when the limit is first passed.
    """

    limit: int
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0
    on_overflow: Callable[[], None] | None = None

    def drain(self, stream) -> threading.Thread:
        def run() -> None:
            with contextlib.suppress(OSError, ValueError):
                while chunk := stream.read1(65536):
                    room = self.limit - len(self.data)
                    if room > 0:
                        self.data += chunk[:room]
                    extra = max(0, len(chunk) - max(room, 0))
                    if extra and not self.dropped and self.on_overflow is not None:
                        self.on_overflow()
                    self.dropped += extra

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


class SandboxedProcess:
    """One running sandboxed command with capped stdout/stderr."""

    def __init__(self, launch: Launch, output_limit: int, *, stdin: bool, fds=()) -> None:
        self.launch = launch
        # Past the output cap the process is stopped at once: a flood of 1 GB costs neither
        # the wall-clock limit nor a gigabyte of pipe traffic.
        self.flooded = False
        self.out = CappedReader(output_limit, on_overflow=self._flood)
        self.err = CappedReader(output_limit, on_overflow=self._flood)
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

    def _flood(self) -> None:
        self.flooded = True
        if self.popen.returncode is None:  # not reaped yet, so the group id is still ours
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, signal.SIGKILL)

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

    Only meaningful when the grader is root and each live sandbox has its own uid. A process
    that made itself non-dumpable shows its ``/proc`` folder as root's, so root-owned entries
    are checked by their real uids; the scan repeats while it finds processes (a fork bomb may
    fork during a scan).
    """
    if os.geteuid() != 0:
        return 0
    killed = 0
    for _ in range(10):
        found = 0
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError):
                owner = entry.stat().st_uid
                mine = owner == uid or (owner == 0 and uid in _status_uids(entry.path))
                if mine and not _is_zombie(entry.path):  # a zombie is dead already
                    os.kill(int(entry.name), signal.SIGKILL)
                    found += 1
        killed += found
        if not found:
            break
    return killed


def _is_zombie(proc_dir: str) -> bool:
    with open(os.path.join(proc_dir, "stat"), "rb") as stat:
        return stat.read().rsplit(b")", 1)[-1].split()[:1] == [b"Z"]


def _status_uids(proc_dir: str) -> set[int]:
    """The real, effective, saved and file-system uids of a process."""
    with open(os.path.join(proc_dir, "status"), "rb") as status:
        for line in status:
            if line.startswith(b"Uid:"):
                return {int(field) for field in line.split()[1:]}
    return set()


def describe_signal(sig: int, limits: Limits) -> str:
    """What a sandboxed process killed by signal ``sig`` went through, in a student's words
    (a phrase to follow "the process running your code")."""
    if sig == signal.SIGXCPU:
        return (
            f"used more than {limits.cpu_seconds} s of CPU and was stopped (an infinite "
            "loop, or a search that is far too slow)"
        )
    if sig == signal.SIGKILL:
        return (
            f"was killed (SIGKILL): it went past its CPU limit ({limits.cpu_seconds} s) or "
            f"memory limit ({limits.memory_mb} MB), or it killed itself"
        )
    if sig == signal.SIGSEGV:
        return (
            "crashed with a segmentation fault (SIGSEGV): usually a recursion far too deep "
            "after sys.setrecursionlimit(), or a crash inside C code"
        )
    if sig == signal.SIGXFSZ:
        return f"tried to write a file larger than {limits.file_size_mb} MB and was stopped"
    if sig == signal.SIGABRT:
        return "aborted (SIGABRT), often after running out of memory"
    name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
    return f"was killed by signal {name}"


def wait_exit(popen: subprocess.Popen, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for ``popen`` to exit; True when it did.

    A pidfd wakes us the moment the process ends, where ``Popen.wait(timeout)`` polls with
    sleeps of up to 50 ms (a cost paid on every one of a class's thousands of program runs).
    """
    try:
        pidfd = os.pidfd_open(popen.pid)
    except (AttributeError, OSError):
        try:
            popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True
    try:
        ready, _, _ = select.select([pidfd], [], [], max(0.0, timeout))
    finally:
        os.close(pidfd)
    if ready:
        popen.wait()
        return True
    return popen.poll() is not None
