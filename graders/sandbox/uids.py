"""Unprivileged uids for sandboxes, unique across every grading process on the machine.

Each live sandbox runs under its own uid, so process caps do not add up and the sweep that
kills a finished sandbox's leftovers cannot touch another sandbox, even one belonging to a
different `grade` run. Ownership is an ``flock`` on a lock file per uid: the kernel releases
it when the owning process dies, so a crashed run never leaks uids.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from graders.errors import GraderError
from graders.sandbox.isolation import BASE_UID
from graders.sandbox.process import sweep_uid

FIRST_UID = BASE_UID  # the pool starts at the uid the isolation probe uses
POOL_SIZE = 512
LOCK_DIR = Path(tempfile.gettempdir()) / "graders-sandbox-uids"


class UidPool:
    """Hands out uids; :meth:`release` kills what still runs under one, then frees it."""

    def __init__(
        self,
        first: int = FIRST_UID,
        size: int = POOL_SIZE,
        on_release: Callable[[int], None] | None = None,
    ) -> None:
        self.candidates = range(first, first + size)
        self.held: dict[int, int] = {}
        self.on_release = on_release  # per-uid cleanup while the uid is still ours

    def acquire(self) -> int:
        LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
        for uid in self.candidates:
            if uid in self.held:
                continue
            fd = os.open(LOCK_DIR / f"{uid}.lock", os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            sweep_uid(uid)  # leftovers of a run that died without cleaning up
            self.held[uid] = fd
            return uid
        raise GraderError(f"all {len(self.candidates)} sandbox uids are in use on this machine")

    def release(self, uid: int) -> None:
        sweep_uid(uid)
        if self.on_release is not None:
            self.on_release(uid)
        fd = self.held.pop(uid, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def close(self) -> None:
        for uid in list(self.held):
            self.release(uid)
