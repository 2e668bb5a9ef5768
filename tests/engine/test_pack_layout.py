"""The one pack layout, checked by ``selfcheck.layout_problems`` on every pack
(tests/packs/test_every_pack.py): modules outside it, and test modules that make cases or read
files while being imported."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from graders.selfcheck import layout_problems

CLEAN = '''"""Docstring."""
import pytest
from hypothesis import strategies as st

from graders.packs.demo import generate
from . import oracle

SIZES = [3, 4]
moves = st.integers(0, 3)


@pytest.mark.parametrize("n", SIZES)
def test_ok(student, n, cases=None):
    for case in generate.games(n):
        assert oracle.answer(case)
'''


def pack_with(tmp_path: Path, files: dict[str, str]) -> SimpleNamespace:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    tests = sorted(tmp_path.glob("test_*.py"))
    return SimpleNamespace(id="demo", dir=tmp_path, test_files=tests)


def test_a_pack_in_the_layout_has_no_problem(tmp_path):
    files = {name: "" for name in ("__init__.py", "driver.py", "driver_moves.py", "checks.py",
                                   "oracle.py", "generate.py")}
    assert layout_problems(pack_with(tmp_path, {**files, "test_demo.py": CLEAN})) == []


def test_modules_outside_the_layout_are_named(tmp_path):
    problems = layout_problems(pack_with(tmp_path, {"grading.py": "", "positions.py": ""}))
    assert [p.split(":")[0] for p in problems] == ["grading.py", "positions.py"]


def test_cases_made_at_import_are_found_wherever_they_hide(tmp_path):
    source = '''import pytest
from graders.packs.demo import generate
from .oracle import answer as reference

GAMES = generate.games(3)
TABLE = {n: reference(n) for n in (1, 2)}
TEXT = open("cases.txt").read()


@pytest.mark.parametrize("game", generate.more(4))
def test_one(game, seen=reference(0)):
    generate.games(5)  # inside a test: fine
'''
    problems = layout_problems(pack_with(tmp_path, {"test_demo.py": source}))
    assert problems == [
        "test_demo.py:5: `generate.games(...)` runs at import; call it in the test",
        "test_demo.py:6: `reference(...)` runs at import; call it in the test",
        "test_demo.py:7: `open(...)` runs at import; call it in the test",
        "test_demo.py:10: `generate.more(...)` runs at import; call it in the test",
        "test_demo.py:11: `reference(...)` runs at import; call it in the test",
    ]
