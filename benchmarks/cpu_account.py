"""CPU time of this process AND every process it starts, sandboxes included.

``getrusage`` misses the sandboxed processes (bubblewrap's pid namespace reaps them), so on a
machine other work is using the only figures left are wall clock, which grow with the load.
The CPU a submission costs barely moves with the load, and at ``--jobs 2`` on two cores it
bounds the throughput: CPU ms per submission / 2 is the best wall time a quiet machine gives.

:func:`accounted` moves this process into a fresh cgroup-v1 ``cpuacct`` group (children
inherit it; the sandbox moves its processes into memory groups only) and reads the group's
total CPU at the end. Where no such group can be made (not root, cgroup v2 only) it yields
None and the callers print the figure as unknown.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

CPUACCT = Path("/sys/fs/cgroup/cpuacct")


class Account:
    """The CPU seconds of a group of processes, read when asked."""

    def __init__(self, group: Path) -> None:
        self.group = group

    def seconds(self) -> float:
        return int((self.group / "cpuacct.usage").read_text()) / 1e9


def join_group(name: str) -> Account | None:
    """Move this process (and what it starts from now on) into a new cpuacct group ``name``;
    None where no group can be made."""
    group = CPUACCT / name
    try:
        group.mkdir()
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        with contextlib.suppress(OSError):
            group.rmdir()
        return None
    return Account(group)


_groups = itertools.count()


@contextlib.contextmanager
def accounted() -> Iterator[Account | None]:
    """This process (and what it starts from now on) in a cpuacct group of its own while the
    block runs. Each block gets a new group: a sandbox reaped late may keep the last one."""
    account = join_group(f"graders-bench-{os.getpid()}-{next(_groups)}")
    if account is None:
        yield None
        return
    try:
        yield account
    finally:
        with contextlib.suppress(OSError):
            (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
        for _ in range(50):  # a reaped sandbox may leave the group a moment later
            with contextlib.suppress(OSError):
                account.group.rmdir()
                break
            os.sched_yield()
