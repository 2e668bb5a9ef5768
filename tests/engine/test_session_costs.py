"""Issue 29: what a grading session costs the grading process beyond its tests."""

from __future__ import annotations

import shutil

from _pytest import unraisableexception

from graders.batch import BatchRequest, grade_batch
from graders.pack import get_pack


def test_a_grading_session_forces_no_full_garbage_collection(tmp_path, monkeypatch):
    """pytest's unraisable-exception plugin collected the whole heap twice per session (a
    share of students), about 10 ms per altNim submission; the sessions leave it out."""
    forced: list[int] = []
    monkeypatch.setattr(unraisableexception, "gc_collect_harder", forced.append)
    pack = get_pack("altnim")
    shutil.copytree(pack.fixtures_dir / "submissions" / "correct", tmp_path / "correct")
    outcome = grade_batch(BatchRequest(pack=pack, sources=[tmp_path / "correct"], jobs=1,
                                       fresh=True))
    assert [r.total for r in outcome.results] == [pack.declaration.max_points]
    assert forced == []
