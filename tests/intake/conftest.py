"""Each layout's realistic export, graded once per test session through `grade`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graders.cli import main

from .exports import build

# What each export needs on the command line (zone-less times are read in Toronto's zone).
OPTIONS = {
    "moodle": ["--timezone", "America/Toronto"],
    "brightspace": ["--timezone", "America/Toronto"],
}
_GRADED: dict[str, tuple[int, Path, object, str]] = {}


@pytest.fixture(scope="session")
def graded_export(tmp_path_factory: pytest.TempPathFactory):
    """``graded_export(layout) -> (exit code, report folder, Expected, console text)``."""

    def grade(layout: str):
        if layout not in _GRADED:
            folder = tmp_path_factory.mktemp(layout)
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
            _GRADED[layout] = (code, out, expected, capture.read_text(encoding="utf-8"))
        return _GRADED[layout]

    return grade


def results_of(out: Path) -> dict[str, dict]:
    return {r["student"]: r for r in json.loads((out / "results.json").read_text())}
