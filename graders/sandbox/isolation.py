"""How a sandboxed child is started: bubblewrap where it works, plain rlimits elsewhere.

Levels, strongest first:

``bubblewrap``
    bwrap (run as root) gives the child its own pid, network, IPC and UTS namespaces, a
    read-only view of ``/usr``, ``/bin`` and ``/lib``, a private ``/tmp``, only the scratch copy
    of the submission at ``/sandbox`` and the harness's child files at ``/harness``. Inside,
    ``setpriv`` drops every capability and switches to an unprivileged uid, so
    ``RLIMIT_NPROC`` holds (the kernel exempts root from it).
``bubblewrap-userns``
    the same namespaces when the grader is not root, via an unprivileged user namespace.
``rlimits``
    no namespaces: resource limits only, and an unprivileged uid when the grader is root.
    The child can read whatever that uid can read; reports say so. As root, what the grader
    controls is closed to that uid: the checkout's hidden trees (:data:`HIDDEN_TREES`), the
    workspaces and the other sandboxes' scratch copies, and what a uid leaves in the shared
    temp folders is removed when it is freed (``uids.sweep_files``).
"""

from __future__ import annotations

import fcntl
import os
import resource
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path

from graders.sandbox import cgroups

SANDBOX_ROOT = "/sandbox"
HARNESS_ROOT = "/harness"
TOOLS_ROOT = "/tools"  # a pack tool's environment is mounted read-only at /tools/<name>
SYSTEM_BINDS = ("/usr", "/bin", "/lib", "/lib64", "/lib32", "/etc/alternatives")
BASE_UID = 60000
# Folders of the checkout no sandbox uid may read (the rlimits fallback closes them to
# "others" when the grader is root): reference solutions, hidden tests and drivers (in the
# engine's `graders/packs`, or a root's own `packs/`, where a wheel install finds them),
# samples and golden files, reports.
HIDDEN_TREES = ("reference_solutions", "fixtures", "graders/packs", "packs", "reports")


class Isolation(StrEnum):
    """Isolation levels, recorded in every result and report."""

    BUBBLEWRAP = "bubblewrap"
    BUBBLEWRAP_USERNS = "bubblewrap-userns"
    RLIMITS = "rlimits"

    @property
    def describe(self) -> str:
        return {
            "bubblewrap": "bubblewrap: no network, read-only system, private /tmp, own pid "
            "namespace, unprivileged uid, resource limits",
            "bubblewrap-userns": "bubblewrap in a user namespace: no network, read-only system, "
            "private /tmp, own pid namespace, resource limits",
            "rlimits": "FALLBACK, resource limits only: no filesystem or network isolation",
        }[self.value]


@dataclass(frozen=True)
class Limits:
    """Resource limits for one sandboxed process tree."""

    wall_seconds: float = 10.0
    cpu_seconds: int = 10
    memory_mb: int = 512
    processes: int = 32
    file_size_mb: int = 8
    disk_mb: int = 64
    open_files: int = 64
    output_kb: int = 256
    call_seconds: float | None = None  # one call of a student's worker; None: wall_seconds

    @property
    def output_bytes(self) -> int:
        return self.output_kb * 1024

    @property
    def per_call(self) -> float:
        """Wall-clock seconds one call of a student's worker may take."""
        return self.call_seconds if self.call_seconds is not None else self.wall_seconds


def sandbox_python() -> str:
    """The interpreter student code runs on: the system ``python3`` (readable by any uid)."""
    override = os.environ.get("GRADER_SANDBOX_PYTHON")
    for candidate in (override, "/usr/bin/python3", shutil.which("python3")):
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("no python3 found for the sandbox (set GRADER_SANDBOX_PYTHON)")


@cache
def _bwrap_works(as_root: bool) -> bool:
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return False
    with tempfile.TemporaryDirectory() as empty:
        probe = _bwrap_prefix(Path(empty), None, as_root, BASE_UID, disk_mb=1) + ["/bin/true"]
        try:
            done = subprocess.run(probe, capture_output=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            return False
    return done.returncode == 0


def detect_isolation() -> Isolation:
    """The strongest level this machine supports (``GRADER_ISOLATION`` may lower it)."""
    forced = os.environ.get("GRADER_ISOLATION")
    if forced:
        return Isolation(forced)
    as_root = os.geteuid() == 0
    if _bwrap_works(as_root):
        return Isolation.BUBBLEWRAP if as_root else Isolation.BUBBLEWRAP_USERNS
    return Isolation.RLIMITS


def _bwrap_prefix(
    workdir: Path,
    harness: Path | None,
    as_root: bool,
    uid: int,
    disk_mb: int,
    tools: Mapping[str, Path] | None = None,
) -> list[str]:
    command = [
        "bwrap",
        "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--unshare-cgroup-try", "--die-with-parent", "--new-session",
        "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
    ]  # fmt: skip
    for path in SYSTEM_BINDS:
        command += ["--ro-bind-try", path, path]
    command += _workdir_mounts(workdir, disk_mb)
    if harness is not None:
        command += ["--ro-bind", str(harness), HARNESS_ROOT]
    if tools:
        # bwrap would make the mount point 0700 root's, closed to the sandbox uid
        command += ["--perms", "0755", "--dir", TOOLS_ROOT]
    for name, home in (tools or {}).items():
        command += ["--ro-bind", str(home), f"{TOOLS_ROOT}/{name}"]
    command += ["--chdir", SANDBOX_ROOT]
    if as_root:
        command += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        command += [
            "setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
            "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--",
        ]  # fmt: skip
    else:
        command += ["--unshare-user", "--uid", "65534", "--gid", "65534"]
    return command


@dataclass(frozen=True)
class Launch:
    """Everything ``subprocess.Popen`` needs to start one sandboxed command."""

    argv: list[str]
    cwd: str
    env: dict[str, str]
    preexec: Callable[[], None]
    isolation: Isolation


def _workdir_mounts(workdir: Path, disk_mb: int) -> list[str]:
    """``/sandbox`` as a memory-backed disk of ``disk_mb`` with the scratch copy's files bound
    into it. New files land on that disk, so a program that writes file after file fills
    ``disk_mb`` and gets ``ENOSPC``, not the grader's disk (which it filled at ~1 GB/s when
    the whole scratch folder was bound); files already there stay capped by ``file_size_mb``.
    """
    command = ["--perms", "0777", "--size", str(disk_mb * 1024 * 1024), "--tmpfs", SANDBOX_ROOT]
    for path in sorted(workdir.rglob("*")):
        inside = f"{SANDBOX_ROOT}/{path.relative_to(workdir).as_posix()}"
        if path.is_symlink():
            command += ["--symlink", os.readlink(path), inside]
        elif path.is_dir():
            command += ["--perms", "0777", "--dir", inside]
        else:
            command += ["--bind", str(path), inside]
    return command


def close_to_others(folder: Path) -> None:
    """Take every permission for "others" off ``folder`` (as root; sandbox uids are others)."""
    if os.geteuid() != 0:
        return
    try:
        mode = folder.stat().st_mode
        if mode & 0o007:
            folder.chmod(mode & ~0o007)
    except OSError:
        pass


def close_hidden_trees(root: Path | None = None) -> list[Path]:
    """Close the :data:`HIDDEN_TREES` of ``root`` (the checkout the packs read: with a wheel
    install, ``GRADERS_ROOT``, not where the engine is) and the engine's own packs to sandbox
    uids (as root); returns them.

    Bubblewrap shows none of them to a sandbox; under the rlimits fallback this is what
    keeps a submission from reading the reference solution. It stays so: git keeps no folder
    modes, and only root (the grader) reads these trees."""
    if os.geteuid() != 0:
        return []
    engine = Path(__file__).resolve().parents[1]
    bases = dict.fromkeys([(root or engine.parent).resolve(), engine.parent])
    closed = [base / tree for base in bases for tree in HIDDEN_TREES if (base / tree).is_dir()]
    for folder in closed:
        close_to_others(folder)
    return closed


def close_temp_work(temp: Path | None = None) -> None:
    """Close grading folders other runs left in the temp folder (as root): workspace roots
    (``grade-work-*``) lose every permission for others, sandbox roots (``grader-sandbox-*``)
    keep only the right to pass through, which their live sandboxes need."""
    if os.geteuid() != 0:
        return
    try:
        entries = list(os.scandir(temp or tempfile.gettempdir()))
    except OSError:
        return
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if info.st_uid != 0 or not entry.is_dir(follow_symlinks=False):
            continue
        if entry.name.startswith("grade-work-"):
            close_to_others(Path(entry.path))
        elif entry.name.startswith("grader-sandbox-") and info.st_mode & 0o006:
            os.chmod(entry.path, info.st_mode & ~0o006)


def prepare_workdir(workdir: Path, uid: int) -> None:
    """Let the sandbox uid write its scratch copy (and nothing else)."""
    if os.geteuid() != 0:
        return
    for path in [workdir, *workdir.rglob("*")]:
        os.lchown(path, uid, uid)


def build_launch(
    command: Sequence[str],
    workdir: Path,
    limits: Limits,
    isolation: Isolation,
    *,
    harness: Path | None = None,
    uid: int = BASE_UID,
    extra_fds: Sequence[int] = (),
    tools: Mapping[str, Path] | None = None,
    cgroup: Path | None = None,
    python: str | None = None,
) -> Launch:
    """Wrap ``command`` (paths inside the sandbox) for the chosen isolation level.

    ``command[0] == "python3"`` means the sandbox interpreter. ``extra_fds`` are dup'ed onto
    fds 3, 4, ... in the child (the worker protocol pipes). ``tools`` (name -> environment
    folder) are mounted read-only at ``/tools/<name>``. ``cgroup`` (a ``cgroup.procs`` file)
    is joined before exec, so the whole sandbox shares one memory cap. ``python`` (a path
    inside the sandbox: the course environment's interpreter) replaces the sandbox interpreter
    as what ``python3`` means.
    """
    program = (python or sandbox_python()) if command[0] == "python3" else command[0]
    argv = [program, *command[1:]]
    env = _child_env(limits)
    as_root = os.geteuid() == 0
    if isolation is Isolation.RLIMITS:
        argv = [_fallback_path(arg, workdir, harness, tools or {}) for arg in argv]
        preexec = _preexec(limits, extra_fds, as_root and uid, cgroup)
        return Launch(argv, str(workdir), env, preexec, isolation)
    as_root = isolation is Isolation.BUBBLEWRAP
    prefix = _bwrap_prefix(workdir, harness, as_root, uid, limits.disk_mb, tools)
    preexec = _preexec(limits, extra_fds, None, cgroup)
    return Launch(prefix + argv, str(workdir), env, preexec, isolation)


def _fallback_path(
    arg: str, workdir: Path, harness: Path | None, tools: Mapping[str, Path]
) -> str:
    if harness is not None and arg.startswith(HARNESS_ROOT + "/"):
        return str(harness / arg[len(HARNESS_ROOT) + 1 :])
    for name, home in tools.items():
        if arg.startswith(f"{TOOLS_ROOT}/{name}/"):
            return str(home / arg[len(TOOLS_ROOT) + len(name) + 2 :])
    if arg.startswith(SANDBOX_ROOT + "/"):
        return str(workdir / arg[len(SANDBOX_ROOT) + 1 :])
    return arg


def _child_env(limits: Limits) -> dict[str, str]:
    # A fresh environment: nothing of the grader's (paths, tokens, canaries) reaches the child.
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "GRADER_OUTPUT_LIMIT": str(limits.output_bytes),
    }


def _preexec(
    limits: Limits,
    extra_fds: Sequence[int],
    drop_to_uid: int | None | bool,
    cgroup: Path | None = None,
):
    memory = limits.memory_mb * 1024 * 1024
    caps = [
        # One second of grace: with equal CPU and wall limits, the wall clock must decide, so
        # a looping program is reported as out of time rather than by whichever fired first.
        (resource.RLIMIT_CPU, (limits.cpu_seconds + 1, limits.cpu_seconds + 2)),
        (resource.RLIMIT_AS, (memory, memory)),
        (resource.RLIMIT_FSIZE, (limits.file_size_mb * 1024 * 1024,) * 2),
        (resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files)),
        (resource.RLIMIT_NPROC, (limits.processes, limits.processes)),
        (resource.RLIMIT_CORE, (0, 0)),
    ]

    def setup() -> None:  # runs in the forked child, before exec
        if cgroup is not None:
            cgroups.join(cgroup)
        moved = [fcntl.fcntl(fd, fcntl.F_DUPFD, 100) for fd in extra_fds]
        for target, fd in enumerate(moved, start=3):
            os.dup2(fd, target)
        for kind, value in caps:
            resource.setrlimit(kind, value)
        if drop_to_uid:
            os.setgroups([])
            os.setgid(int(drop_to_uid))
            os.setuid(int(drop_to_uid))

    return setup
