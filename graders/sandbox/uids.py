"""Unprivileged uids for sandboxes, unique across every grading process on the machine.

Each live sandbox runs under its own uid, so process caps do not add up and the sweep that
kills a finished sandbox's leftovers cannot touch another sandbox, even one belonging to a
different `grade` run. Ownership is an ``flock`` on a lock file per uid: the kernel releases
it when the owning process dies, so a crashed run never leaks uids. The lock file also says
whether its uid was left clean (:data:`CLEAN`).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from graders.errors import GraderError
from graders.sandbox.isolation import BASE_UID
from graders.sandbox.process import sweep_uid

FIRST_UID = BASE_UID  # the pool starts at the uid the isolation probe uses
POOL_SIZE = 512
LOCK_DIR = Path(tempfile.gettempdir()) / "graders-sandbox-uids"
# Shared folders any uid can write in: what a sandbox leaves there goes when its uid is freed.
SHARED_TEMP = ("/tmp", "/var/tmp", "/dev/shm")
SWEEP_DEPTH = 3
# Written in a uid's lock file by a release whose sweep found nothing left under the uid; the
# next acquire then skips its own sweep (one scan of /proc per sandbox, not two). Acquiring
# empties the file, so a holder that dies without releasing leaves it to be swept.
CLEAN = b"clean\n"


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
            if os.pread(fd, len(CLEAN), 0) == CLEAN:
                os.ftruncate(fd, 0)  # not clean while held: a holder that dies leaves it so
            else:
                sweep_uid(uid)  # leftovers of a run that died without cleaning up
            self.held[uid] = fd
            return uid
        raise GraderError(f"all {len(self.candidates)} sandbox uids are in use on this machine")

    def release(self, uid: int) -> None:
        clean = sweep_uid(uid) == 0
        sweep_files(uid)
        if self.on_release is not None:
            self.on_release(uid)
        fd = self.held.pop(uid, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                if clean:  # the next holder's scan of /proc would find nothing: it is skipped
                    os.pwrite(fd, CLEAN, 0)
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def close(self) -> None:
        for uid in list(self.held):
            self.release(uid)


def sweep_files(uid: int, roots: tuple[str, ...] = SHARED_TEMP) -> list[str]:
    """Remove what ``uid`` left in the shared temp folders (its files, folders and links, at
    most :data:`SWEEP_DEPTH` levels down); returns the paths removed.

    Only as root (a sandbox uid is then nobody else's). A folder the uid cannot write in is
    not entered: nothing of the uid's can be inside."""
    if os.geteuid() != 0 or uid < FIRST_UID:
        return []
    removed: list[str] = []
    for root in roots:
        _sweep_folder(root, uid, SWEEP_DEPTH, removed)
    return removed


def _sweep_folder(folder: str, uid: int, depth: int, removed: list[str]) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if info.st_uid == uid:
                if stat.S_ISDIR(info.st_mode):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
                removed.append(entry.path)
            elif depth > 1 and stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_IWOTH:
                _sweep_folder(entry.path, uid, depth - 1, removed)
