"""One memory cap for a whole sandbox (every process it starts), through a memory cgroup.

``RLIMIT_AS`` caps each process, and a sandbox may run ``processes`` of them, so on its own it
lets a submission hold ``processes x memory_mb``: enough to push a 24 GiB machine into its
out-of-memory killer, which may pick the grader. Here each sandbox uid gets a child cgroup of
the grader's own memory cgroup (cgroup v1 or v2), capped at the run's ``memory_mb``; the
sandbox's first process joins it before it execs bubblewrap, so everything below is counted
together and the kernel kills inside the sandbox when the cap is reached.

Where no memory cgroup is writable (not root, a locked-down container) the cap stays per
process; :attr:`MemoryCgroups.available` tells, and the sandbox says so.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PREFIX = "graders-sandbox-"
DISCARD_ATTEMPTS = 30  # about 4.5 s of waiting in all


class MemoryCgroups:
    """Capped cgroups named after sandbox uids, made on demand and removed on release."""

    def __init__(self, base: Path | None | bool = True) -> None:
        self.base = _writable_base() if base is True else (base or None)

    @property
    def available(self) -> bool:
        return self.base is not None

    def cap(self, uid: int, memory_mb: int) -> Path | None:
        """The ``cgroup.procs`` file of ``uid``'s cgroup, capped at ``memory_mb`` (None when
        memory cgroups are not available here)."""
        if self.base is None:
            return None
        group = self.base / f"{PREFIX}{uid}"
        group.mkdir(exist_ok=True)
        _set_limit(group, memory_mb * 1024 * 1024)
        return group / "cgroup.procs"

    def discard(self, uid: int) -> None:
        """Kill what is left in ``uid``'s cgroup and remove it (a leftover is reused).

        The sandbox's processes are gone by now, but the kernel tears an out-of-memory-killed
        process down after its parent has seen it die, so the folder may be busy for a moment.
        """
        if self.base is None:
            return
        group = self.base / f"{PREFIX}{uid}"
        for attempt in range(DISCARD_ATTEMPTS):
            try:
                group.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                _kill_members(group)
                time.sleep(0.01 * (attempt + 1))


def join(procs: Path) -> None:
    """Move the calling process into the cgroup of ``procs`` (runs in the forked child)."""
    fd = os.open(procs, os.O_WRONLY)
    try:
        os.write(fd, str(os.getpid()).encode())
    finally:
        os.close(fd)


def _kill_members(group: Path) -> None:
    with contextlib.suppress(OSError):
        for pid in (group / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError):
                os.kill(int(pid), signal.SIGKILL)


def _limit_files(group: Path) -> list[Path]:
    v2 = group / "memory.max"
    if v2.exists():
        return [v2, *[p for p in [group / "memory.swap.max"] if p.exists()]]
    return [group / "memory.limit_in_bytes",
            *[p for p in [group / "memory.memsw.limit_in_bytes"] if p.exists()]]


def _set_limit(group: Path, value: int) -> None:
    files = _limit_files(group)
    # v1's memory+swap limit may never be below the memory limit: raising a cap needs
    # memsw first, lowering it needs the memory limit first.
    for order in (files, files[::-1]):
        try:
            for path in order:
                path.write_text(str(value if "swap.max" not in path.name else 0))
            return
        except OSError as error:
            failure = error
    raise failure


def _own_group() -> Path | None:
    """This process's memory cgroup folder (v1 ``memory`` hierarchy, else v2)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    return memory_group_of(lines, CGROUP_ROOT)


def memory_group_of(lines: list[str], root: Path) -> Path | None:
    """The memory cgroup folder that ``/proc/<pid>/cgroup`` ``lines`` name under ``root``:
    the v1 ``memory`` hierarchy where it is mounted, else the v2 unified one."""
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(",") and (root / "memory").is_dir():
            return root / "memory" / path.lstrip("/")
    for line in lines:
        if line.startswith("0::"):
            return root / line[3:].lstrip("/")
    return None


def _writable_base() -> Path | None:
    """Where sandbox cgroups can be made and capped, found by making one; None if nowhere."""
    if os.geteuid() != 0 or os.environ.get("GRADER_NO_CGROUPS"):
        return None
    base = _own_group()
    if base is None:
        return None
    probe = MemoryCgroups(base)
    try:
        probe.cap(os.getpid(), 64)
    except OSError:
        return None
    finally:
        probe.discard(os.getpid())
    return base
