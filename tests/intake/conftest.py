"""Each layout's realistic export, graded once per test run through `grade`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graders.cli import main
from graders.pack import get_pack

from .exports import Expected, build

# What each export needs on the command line (zone-less times are read in Toronto's zone).
OPTIONS = {
    "moodle": ["--timezone", "America/Toronto"],
    "brightspace": ["--timezone", "America/Toronto"],
}
ALTNIM = get_pack("altnim")


def grade_export(layout: str, folder: Path) -> tuple[int, Path, Expected, str]:
    """``layout``'s export built in ``folder`` and graded there through `grade`."""
    path, expected = build(layout, folder)
    out = folder / "reports"
    args = [str(path), "-a", "altnim", "--out", str(out), *OPTIONS.get(layout, [])]
    if expected.roster:
        args += ["--roster", str(expected.roster)]
    capture = folder / "console.txt"
    with pytest.MonkeyPatch.context() as patch:
        from rich.console import Console

        from graders import console

        handle = capture.open("w", encoding="utf-8")
        # a new Console, not its `file`: undoing a patched `file` would pin the
        # console to this test's captured stream for every later test
        patch.setattr(console, "console", Console(file=handle, highlight=False))
        code = main(args)
        handle.close()
    return code, out, expected, capture.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def graded_export(run_cache):
    """``graded_export(layout) -> (exit code, report folder, Expected, console text)``, once
    per test run; the report folder is shared: read it, never change it."""
    graded: dict[str, tuple[int, Path, Expected, str]] = {}

    def grade(layout: str):
        if layout not in graded:
            graded[layout] = run_cache.once(f"export-{layout}", ALTNIM,
                                            lambda folder: grade_export(layout, folder))
        return graded[layout]

    return grade


def results_of(out: Path) -> dict[str, dict]:
    return {r["student"]: r for r in json.loads((out / "results.json").read_text())}
