"""Issue 29: what a grading session costs the grading process beyond its tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _pytest import unraisableexception

from graders.batch import BatchRequest, grade_batch
from graders.pack import get_pack


def grade_correct_altnim(tmp_path: Path) -> None:
    """One grading session of altNim's correct sample, at full marks."""
    pack = get_pack("altnim")
    shutil.copytree(pack.fixtures_dir / "submissions" / "correct", tmp_path / "correct")
    outcome = grade_batch(BatchRequest(pack=pack, sources=[tmp_path / "correct"], jobs=1,
                                       fresh=True))
    assert [r.total for r in outcome.results] == [pack.declaration.max_points]


def test_a_grading_session_forces_no_full_garbage_collection(tmp_path, monkeypatch):
    """pytest's unraisable-exception plugin collected the whole heap twice per session (a
    share of students), about 10 ms per altNim submission; the sessions leave it out."""
    forced: list[int] = []
    monkeypatch.setattr(unraisableexception, "gc_collect_harder", forced.append)
    grade_correct_altnim(tmp_path)
    assert forced == []


def test_a_grading_session_loads_no_test_only_plugin(tmp_path, monkeypatch):
    """pytest-postgresql (for the harness's own gradebook tests) imports mirakuru, whose exit
    hook SIGKILLs every process whose ``_MIRAKURU_UUID`` holds the exiting process's pid as a
    substring: a grading process's exit killed a test PostgreSQL server in CI. Grading
    sessions leave the plugin out."""
    plugin = pytest.importorskip("pytest_postgresql.plugin")
    configured: list[object] = []
    monkeypatch.setattr(plugin, "pytest_configure", configured.append)
    grade_correct_altnim(tmp_path)
    assert configured == []
