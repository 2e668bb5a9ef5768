"""The trust boundary: student code runs only in sandboxed child processes.

:class:`Sandbox` is the one entry point: it stages the harness's child-side files, makes a fresh
scratch copy of a workspace for every process, starts one-shot programs (:meth:`Sandbox.run`) and
long-lived workers (:meth:`Sandbox.worker`), and cleans up after them. Under bubblewrap, the
programs of one workspace run in one program server (:mod:`graders.sandbox.programs`), a fork
per run; ``Sandbox.programs = "fresh"`` (or ``GRADER_PROGRAM_RUNS=fresh``) starts a fresh
sandbox and interpreter for every run instead.
"""

from __future__ import annotations

import os
import py_compile
import shutil
import tempfile
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

from graders.sandbox import harness_entries
from graders.sandbox.cgroups import MemoryCgroups
from graders.sandbox.isolation import (
    TOOLS_ROOT,
    Isolation,
    Launch,
    Limits,
    build_launch,
    close_hidden_trees,
    close_temp_work,
    close_to_others,
    detect_isolation,
    prepare_workdir,
)
from graders.sandbox.keeper_launcher import KeeperLauncher
from graders.sandbox.process import SandboxedProcess, describe_signal, wait_exit
from graders.sandbox.programs import SERVER_SOURCE, ProgramServer, serves
from graders.sandbox.uids import UidPool
from graders.sandbox.worker import Worker

CHILD_SOURCE = Path(__file__).with_name("child.py")
KEEPER_SOURCE = Path(__file__).with_name("keeper.py")
GUARD_SOURCE = Path(__file__).with_name("guard.py")
KIT_SOURCE = Path(__file__).with_name("harness_kit.py")
# Child-side engine modules every harness carries beside the pack's driver: the drivers'
# shared helpers, their resolver of the pack's [entries], and the runners of the engine's
# checkers (a tool's script, `run_tool`).
HARNESS_MODULES = (KIT_SOURCE, Path(harness_entries.__file__),
                   Path(__file__).resolve().parents[1] / "style" / "pyta_runner.py")
SERVERS_KEPT = 2  # program servers alive at once (students are graded one after another)


@dataclass(frozen=True)
class RunResult:
    """What one sandboxed program run produced: plain data only."""

    argv: list[str]
    stdout: str
    stderr: str
    exit_code: int | None
    timed_out: bool
    output_truncated: bool
    seconds: float
    stopped_for_output: bool = False  # killed when its output passed the cap

    def problem(self, limits: Limits) -> str | None:
        """A plain-language account of what went wrong, or None for a clean run."""
        if self.timed_out:
            return f"did not finish within {limits.wall_seconds:g} s and was stopped"
        if self.stopped_for_output:
            return f"printed more than {limits.output_kb} KB and was stopped"
        if self.exit_code is not None and self.exit_code < 0:
            return describe_signal(-self.exit_code, limits)
        if self.exit_code is not None and 128 < self.exit_code < 128 + 65:
            # bubblewrap reports a command killed by signal N as exit status 128 + N
            how = describe_signal(self.exit_code - 128, limits)
            return f"exited with status {self.exit_code}: it {how}"
        if self.exit_code:
            error = self.last_error()
            if error.startswith("EOFError"):  # input() past the run's stdin: say so plainly
                error += " (it asked for more input() than the run gives it)"
            return f"exited with status {self.exit_code}: {error}"
        return None

    def last_error(self) -> str:
        """The last line the program wrote to stderr (usually the exception)."""
        lines = self.stderr.strip().splitlines()
        return lines[-1] if lines else "no error message"



class Killable(Protocol):
    """A long-lived sandboxed process (a worker's keeper, a program server)."""

    def kill(self) -> None: ...

class Sandbox:
    """Runs untrusted code under one isolation level."""

    def __init__(
        self, isolation: Isolation | None = None, environment: tuple[str, Path] | None = None,
        checkout: Path | None = None,
    ) -> None:
        """``checkout``: the root whose hidden trees the rlimits fallback closes to sandbox
        uids (the packs' project root; default: the one the engine sits in)."""
        self.isolation = isolation or detect_isolation()
        # The course's environment (tool name, folder): mounted read-only at /tools/<name> in
        # every sandbox, its interpreter the one `python3` names, so its packages import.
        self.environment = environment
        self.memory = MemoryCgroups(self.isolation is not Isolation.BUBBLEWRAP_USERNS)
        self._uids = UidPool(on_release=self.memory.discard)
        self._janitor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scratch-janitor")
        self.root = Path(tempfile.mkdtemp(prefix="grader-sandbox-"))
        # Sandbox uids may reach their own scratch copy (0700, theirs) and the harness
        # folders by name, never list what else is here.
        self.root.chmod(0o711)
        if self.isolation is Isolation.RLIMITS:
            close_hidden_trees(checkout)
            close_temp_work()  # what earlier runs (even killed ones) left in the temp folder
        self._harness: dict[Path, Path] = {}
        # "server": a workspace's programs share one program server; "fresh": one sandbox each.
        self.programs = os.environ.get("GRADER_PROGRAM_RUNS", "server")
        self._servers: OrderedDict[tuple[Path, Limits], ProgramServer] = OrderedDict()

    def close(self) -> None:
        while self._servers:
            self._servers.popitem()[1].close()
        self._uids.close()
        self._janitor.shutdown(wait=True)
        shutil.rmtree(self.root, ignore_errors=True)

    def discard(self, folder: Path) -> None:
        """Remove a finished process's scratch copy in the background (removing a tree that
        was a sandbox's mount source takes ~10 ms, paid off the grading path)."""
        self._janitor.submit(shutil.rmtree, folder, ignore_errors=True)

    def acquire_uid(self) -> int:
        """An unprivileged uid no other live sandbox on this machine uses."""
        return self._uids.acquire()

    def release_uid(self, uid: int) -> None:
        """Kill anything still running under ``uid`` (escapes from the group), then free it."""
        self._uids.release(uid)

    def end(self, process: Killable | None, uid: int | None,
            scratch: Path | None) -> None:
        """End one long-lived sandboxed process: kill it, free its uid (and whatever still runs
        under it), discard its scratch copy; each part may be missing (never started)."""
        if process is not None:
            process.kill()
        if uid is not None:
            self.release_uid(uid)
        if scratch is not None:
            self.discard(scratch)

    def harness_for(self, driver: Path) -> Path:
        """A read-only folder with ``keeper.py`` (holds the grader's channel), ``child.py``
        (runs the driver and the student's code), its guard ``child_guard.py``, ``driver`` as
        ``grader_driver.py``, the engine's :data:`HARNESS_MODULES` (``harness_kit.py``, the
        checkers' runners), the driver's helper modules (``driver_*.py`` beside it,
        importable by their own names) and the pack's ``[entries]`` as ``entries.json``."""
        if driver not in self._harness:
            folder = Path(tempfile.mkdtemp(prefix="harness-", dir=self.root))
            shutil.copyfile(CHILD_SOURCE, folder / "child.py")
            shutil.copyfile(KEEPER_SOURCE, folder / "keeper.py")
            shutil.copyfile(GUARD_SOURCE, folder / "child_guard.py")
            for module in HARNESS_MODULES:
                shutil.copyfile(module, folder / module.name)
            shutil.copyfile(driver, folder / "grader_driver.py")
            for helper in sorted(driver.parent.glob("driver_*.py")):
                shutil.copyfile(helper, folder / helper.name)
            if (driver.parent / "assignment.toml").is_file():
                (folder / harness_entries.TABLE_FILE).write_text(
                    harness_entries.table_json(driver.parent / "assignment.toml"), "utf-8")
            _compiled(folder)
            self._harness[driver] = folder
        return self._harness[driver]

    def program_harness(self) -> Path:
        """A read-only folder holding only the program server's script."""
        if SERVER_SOURCE not in self._harness:
            folder = Path(tempfile.mkdtemp(prefix="programs-", dir=self.root))
            shutil.copyfile(SERVER_SOURCE, folder / SERVER_SOURCE.name)
            (folder / SERVER_SOURCE.name).chmod(0o644)
            folder.chmod(0o755)
            self._harness[SERVER_SOURCE] = folder
        return self._harness[SERVER_SOURCE]

    def _server(self, workspace: Path, limits: Limits) -> ProgramServer:
        key = (workspace.resolve(), limits)
        if key in self._servers:
            self._servers.move_to_end(key)
        else:
            self._servers[key] = ProgramServer(self, workspace, limits)
            while len(self._servers) > SERVERS_KEPT:
                self._servers.popitem(last=False)[1].close()
        return self._servers[key]

    def served(self, workspace: Path, limits: Limits) -> int:
        """How many runs of ``workspace`` its program server has answered (0 without one)."""
        server = self._servers.get((workspace.resolve(), limits))
        return server.runs if server is not None else 0

    def preloaded(self, workspace: Path, limits: Limits) -> list[str]:
        """The course packages ``workspace``'s program server keeps imported for its runs."""
        server = self._servers.get((workspace.resolve(), limits))
        return list(server.preloaded) if server is not None else []

    def scratch_copy(
        self, workspace: Path, uid: int, extra: Mapping[str, Path] | None = None
    ) -> Path:
        """A fresh copy of ``workspace`` (and ``extra`` files) for one process, writable by
        ``uid`` only."""
        if self.isolation is Isolation.RLIMITS:
            # The sandbox reads its copy, never the original: the workspace and the folder
            # holding the batch's workspaces (the reference's too) are closed to sandbox uids.
            close_to_others(workspace)
            if workspace.parent.resolve() != Path(tempfile.gettempdir()).resolve():
                close_to_others(workspace.parent)
        target = Path(tempfile.mkdtemp(prefix="run-", dir=self.root))
        shutil.copytree(workspace, target, dirs_exist_ok=True, symlinks=True)
        for name, source in (extra or {}).items():
            shutil.copyfile(source, target / name)
        target.chmod(0o700)  # copytree gave it the workspace's mode
        prepare_workdir(target, uid)
        return target

    def launch(
        self,
        command: Sequence[str],
        workdir: Path,
        limits: Limits,
        *,
        uid: int,
        harness: Path | None = None,
        extra_fds: Sequence[int] = (),
        tools: Mapping[str, Path] | None = None,
    ) -> Launch:
        python = None
        if self.environment is not None:
            name, home = self.environment
            tools = {**(tools or {}), name: home}
            python = f"{TOOLS_ROOT}/{name}/bin/python"
        return build_launch(
            command,
            workdir,
            limits,
            self.isolation,
            harness=harness,
            uid=uid,
            extra_fds=extra_fds,
            tools=tools,
            cgroup=self.memory.cap(uid, limits.memory_mb),
            python=python,
        )

    def worker(self, workspace: Path, driver: Path, limits: Limits, label: str) -> Worker:
        return Worker(KeeperLauncher(self), workspace, self.harness_for(driver), limits, label)

    def run(
        self,
        workspace: Path,
        command: Sequence[str],
        limits: Limits,
        *,
        stdin: str = "",
        timeout: float | None = None,
        extra: Mapping[str, Path] | None = None,
        harness: Path | None = None,
        tools: Mapping[str, Path] | None = None,
    ) -> RunResult:
        """Run ``command`` once on a fresh copy of ``workspace`` plus the ``extra`` files
        (name in the sandbox -> path on the host), which only this run sees; ``harness`` is
        mounted read-only at ``/harness`` and ``tools`` at ``/tools/<name>``.

        A ``python3 prog.py ...`` run goes to the workspace's program server when the
        isolation has a pid namespace and :attr:`programs` is ``"server"``; it runs fresh when
        the server hands it back."""
        if (self.programs == "server" and self.isolation is not Isolation.RLIMITS
                and harness is None and not tools and serves(command)):
            served = self._server(workspace, limits).run(command, stdin=stdin, timeout=timeout,
                                                         extra=extra)
            if served is not None:
                return served
        return self.run_fresh(workspace, command, limits, stdin=stdin, timeout=timeout,
                              extra=extra, harness=harness, tools=tools)

    def run_fresh(
        self,
        workspace: Path,
        command: Sequence[str],
        limits: Limits,
        *,
        stdin: str = "",
        timeout: float | None = None,
        extra: Mapping[str, Path] | None = None,
        harness: Path | None = None,
        tools: Mapping[str, Path] | None = None,
    ) -> RunResult:
        """:meth:`run` in a fresh sandbox and interpreter, whatever :attr:`programs` says."""
        uid = self.acquire_uid()
        scratch = self.scratch_copy(workspace, uid, extra)
        started = time.monotonic()
        process = SandboxedProcess(
            self.launch(command, scratch, limits, uid=uid, harness=harness, tools=tools),
            limits.output_bytes,
            stdin=True,
        )
        try:
            feed_stdin(process.popen.stdin, stdin)
            limit = timeout if timeout is not None else limits.wall_seconds
            timed_out = not wait_exit(process.popen, limit)
        finally:
            process.kill()
            self.release_uid(uid)
            self.discard(scratch)
        return RunResult(
            argv=list(command),
            stdout=process.out.text(),
            stderr=process.err.text(),
            exit_code=None if timed_out else process.popen.returncode,
            timed_out=timed_out,
            output_truncated=process.output_dropped > 0,
            seconds=time.monotonic() - started,
            stopped_for_output=process.flooded and not timed_out,
        )


def feed_stdin(pipe: IO[bytes] | None, text: str) -> None:
    """Write a run's stdin and close it; a program that ended, or closed its stdin, first is
    not waited on (the pre-check's runs feed theirs so too)."""
    if pipe is None:
        return
    try:
        pipe.write(text.encode("utf-8"))
        pipe.close()
    except OSError:  # BrokenPipeError among them
        pass


__all__ = ["Isolation", "Limits", "RunResult", "Sandbox", "Worker"]


def _compiled(folder: Path) -> None:
    """Byte-compile the harness's modules into ``folder/__pycache__`` and make it all
    read-only. The sandbox mounts it read-only, so its interpreter could never write them:
    without them every worker start compiled the driver, the guard and the kit from source
    again (an interpreter of another version ignores them)."""
    for source in sorted(folder.glob("*.py")):
        py_compile.compile(str(source), doraise=True)
    for path in (folder, *folder.iterdir(), *folder.glob("__pycache__/*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
