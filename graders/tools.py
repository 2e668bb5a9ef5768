"""Pack tools: third-party Python programs (python_ta, ...) that a pack runs on submissions.

A tool is declared in ``assignment.toml`` (``[[tools]]``) and lives in a virtual environment
of its own, ``<tools dir>/<name>``, built by ``grade setup`` from the sandbox's interpreter.
Its pins never meet the harness's (python_ta pins an older mypy, for one), and the sandbox
mounts it read-only at ``/tools/<name>``, so the tool reads student code only in there.

A stamp file records what was installed; a tool whose stamp does not match its declaration is
"not ready" and grading refuses to start rather than mark with the wrong version.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path

from graders.errors import GraderError
from graders.pack import Pack, project_root
from graders.pack_specs import ENVIRONMENT_PREFIX, ToolSpec
from graders.sandbox.isolation import HARNESS_ROOT, TOOLS_ROOT, Limits, sandbox_python

STAMP = "graders-tool.json"


def tools_dir() -> Path:
    """Where tool environments live: ``$GRADER_TOOLS_DIR``, else ``<project>/.tools``."""
    return Path(os.environ.get("GRADER_TOOLS_DIR") or project_root() / ".tools").resolve()


def answers_dir(name: str) -> Path:
    """Where the answers of tool ``name`` are kept between runs (:mod:`graders.style.answers`):
    beside its environment, so they go with it."""
    return tools_dir() / f"{name}.answers"


@dataclass(frozen=True)
class Tool:
    """One declared tool of one pack, and its environment on this machine."""

    spec: ToolSpec
    pack_id: str
    home: Path

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def what(self) -> str:
        """How messages name it: ``the tool python_ta``, or the pack's ``[environment]``."""
        if self.name.startswith(ENVIRONMENT_PREFIX):
            return f"the course's environment ({', '.join(self.spec.requirements)})"
        return f"the tool {self.name}"

    @property
    def python(self) -> str:
        """The tool environment's interpreter, as seen inside the sandbox."""
        return f"{TOOLS_ROOT}/{self.name}/bin/python"

    def command(self, script: str, args: Sequence[str] = ()) -> list[str]:
        """The sandbox command running the child-side ``script`` (in /harness) with the
        tool's interpreter, in isolated mode."""
        return [self.python, "-I", f"{HARNESS_ROOT}/{script}", *args]

    def limits(self, base: Limits) -> Limits:
        """``base`` with the tool's own time and memory limits."""
        seconds = self.spec.wall_seconds
        return replace(
            base,
            wall_seconds=seconds,
            cpu_seconds=math.ceil(seconds),
            memory_mb=self.spec.memory_mb,
        )

    def stamp(self) -> dict[str, object] | None:
        try:
            data = json.loads((self.home / STAMP).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def problem(self) -> str | None:
        """Why the tool cannot be used now (with what to do), or None when it is ready."""
        stamp = self.stamp()
        fix = f"run `grade setup {self.pack_id}`"
        if stamp is None:
            return f"{self.pack_id} needs {self.what}, which is not installed: {fix}"
        if stamp.get("requirements") != self.spec.requirements:
            return (
                f"{self.what} in {self.home} was installed for "
                f"{stamp.get('requirements')}, but {self.pack_id} asks for "
                f"{self.spec.requirements}: {fix}"
            )
        if stamp.get("python") != sandbox_python():
            return f"{self.what} was built for another interpreter: {fix}"
        return None

    def versions(self) -> dict[str, str]:
        """Installed distribution -> version, as recorded at setup."""
        stamp = self.stamp() or {}
        installed = stamp.get("installed")
        return dict(installed) if isinstance(installed, dict) else {}

    def install(self) -> None:
        """(Re)build the environment from scratch; GraderError with pip's words on failure."""
        shutil.rmtree(self.home, ignore_errors=True)
        self.home.parent.mkdir(parents=True, exist_ok=True)
        _step([sandbox_python(), "-m", "venv", str(self.home)], "create the environment")
        pip = [str(self.home / "bin" / "python"), "-m", "pip"]
        quiet = ["--quiet", "--disable-pip-version-check"]
        _step([*pip, "install", *quiet, *self.spec.requirements], "install the requirements")
        listed = _step(
            [*pip, "list", "--format=json", "--disable-pip-version-check"],
            "list what was installed",
        )
        installed = {item["name"]: item["version"] for item in json.loads(listed)}
        stamp = {
            "requirements": self.spec.requirements,
            "python": sandbox_python(),
            "installed": installed,
        }
        partial = self.home / (STAMP + ".part")
        partial.write_text(json.dumps(stamp, indent=1), encoding="utf-8")
        partial.replace(self.home / STAMP)
        _world_readable(self.home)


def tools_of(pack: Pack) -> list[Tool]:
    """The tools ``pack`` declares, with where each one's environment lives, and the pack's
    ``[environment]`` (the course's environment for student code) as one more."""
    tools = [Tool(spec, pack.id, tools_dir() / spec.name) for spec in pack.declaration.tools]
    course = environment_of(pack)
    return tools if course is None else [*tools, course]


def environment_of(pack: Pack) -> Tool | None:
    """The pack's ``[environment]`` as a tool named ``env_<id>`` (built, stamped and mounted
    as every tool is), or None when the pack declares nothing to import."""
    requirements = pack.declaration.environment.requirements
    if not requirements:
        return None
    name = f"{ENVIRONMENT_PREFIX}{pack.id}"
    return Tool(ToolSpec(name=name, requirements=requirements), pack.id, tools_dir() / name)


def environment_mount(pack: Pack) -> tuple[str, Path] | None:
    """``(name, folder)`` of the pack's course environment for :class:`Sandbox`, when it is
    declared and ready (grading refuses to start otherwise; the pre-check goes on without)."""
    course = environment_of(pack)
    if course is None or course.problem() is not None:
        return None
    return course.name, course.home


def tool_of(pack: Pack, name: str) -> Tool:
    """The tool ``name`` of ``pack``; a GraderError (a pack bug) if it is not declared."""
    for tool in tools_of(pack):
        if tool.name == name:
            return tool
    raise GraderError(f"pack {pack.id} uses the tool {name!r} but does not declare it")


def unready_tools(pack: Pack) -> list[str]:
    """What keeps any of the pack's tools from being used (empty when all are ready)."""
    return [problem for tool in tools_of(pack) if (problem := tool.problem())]


def setup_tools(packs: list[Pack], force: bool = False) -> Iterator[tuple[Tool, str]]:
    """Install every tool of ``packs`` that is not ready (all of them with ``force``),
    yielding each tool with what was done, the ready ones first; GraderError when an install
    fails. The installs run side by side: each is its own environment, mostly waiting on pip."""
    wanted: dict[str, Tool] = {}
    for pack in packs:
        for tool in tools_of(pack):
            wanted.setdefault(tool.name, tool)
    missing = []
    for tool in wanted.values():
        if tool.problem() is None and not force:
            yield tool, "ready"
        else:
            missing.append(tool)
    if not missing:
        return
    with ThreadPoolExecutor(max_workers=len(missing)) as pool:
        futures = {pool.submit(tool.install): tool for tool in missing}
        for future in as_completed(futures):
            future.result()
            yield futures[future], "installed"


def _step(command: list[str], what: str) -> str:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise GraderError(f"could not {what} ({' '.join(command[:4])} ...): " + " | ".join(said))
    return done.stdout


def _world_readable(home: Path) -> None:
    # The sandbox runs the tool as an unprivileged uid: it must read (not write) everything.
    for path in (home, *home.rglob("*")):
        if not path.is_symlink():
            mode = path.stat().st_mode
            path.chmod(mode | (0o555 if path.is_dir() else 0o444))
