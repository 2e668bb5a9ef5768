# mypy: ignore-errors
"""The pack's tools (python_ta, ...) in the pre-check: the student's own environment, which
installed exactly the pinned versions from requirements.txt."""

from __future__ import annotations

import math
import os
import re
import sys
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path

from _precheck import PACKAGE_DIR
from _precheck.sandbox.isolation import HARNESS_ROOT, TOOLS_ROOT, Limits


@dataclass(frozen=True)
class KitTool:
    """A declared tool, run by this interpreter (``/tools/<name>/bin/python`` maps to it)."""

    spec: object
    home: Path

    @property
    def name(self) -> str:
        return self.spec.name

    def problem(self) -> str | None:
        """What to install before the checks that need this tool can run, or None."""
        if os.environ.get("PRECHECK_RECORD"):  # `grade kit` records answers: no tool runs
            return "no tool runs while `grade kit` records the answers of hidden helpers"
        for requirement in self.spec.requirements:
            name, _, pinned = re.split(r"(==)", requirement, maxsplit=1)
            try:
                found = metadata.version(name)
            except metadata.PackageNotFoundError:
                found = None
            if found != pinned:
                return (f"this check needs {requirement} (found {found or 'nothing'}): run "
                        "`python3 -m pip install -r requirements.txt` in this folder, then "
                        "run the pre-check again")
        return None

    def versions(self) -> dict[str, str]:
        """Installed distribution -> version in this environment (what the answers kept for
        this tool are keyed by: another install asks python_ta again)."""
        return {dist.metadata["Name"]: dist.version for dist in metadata.distributions()}

    def command(self, script: str, args=()) -> list[str]:
        return [f"{TOOLS_ROOT}/{self.name}/bin/python", "-I", f"{HARNESS_ROOT}/{script}", *args]

    def limits(self, base: Limits) -> Limits:
        seconds = self.spec.wall_seconds
        return replace(base, wall_seconds=seconds, cpu_seconds=math.ceil(seconds),
                       memory_mb=self.spec.memory_mb)


def tool_of(pack, name: str) -> KitTool:
    """The tool ``name`` the pack declares."""
    for spec in pack.declaration.tools:
        if spec.name == name:
            return KitTool(spec, Path(sys.prefix))
    raise KeyError(f"pack {pack.id!r} declares no tool {name!r}")


def answers_dir(name: str) -> Path:
    """Where the answers of tool ``name`` are kept between pre-checks: ``$PRECHECK_ANSWERS``,
    else inside the kit's own ``_precheck`` folder. A student who runs the pre-check again
    pays python_ta only for the files they changed; the starter's answers are made once."""
    return Path(os.environ.get("PRECHECK_ANSWERS") or PACKAGE_DIR / "kept") / name
