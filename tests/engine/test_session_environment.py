"""A shell's pytest settings never reach a grading session (:func:`graders.plugin.own_session`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from graders.batch import BatchRequest, grade_batch
from graders.pack import get_pack
from graders.selfcheck import expected_path, mismatches

PACK = get_pack("altnim")
SAMPLE = PACK.fixtures_dir / "submissions" / "depth_off_by_one"  # 40: three tests fail
EMPTIES_EVERY_SESSION = "def pytest_collection_modifyitems(items):\n    items.clear()\n"


def test_the_shells_pytest_settings_change_no_mark(tmp_path: Path, monkeypatch):
    """An instructor's `PYTEST_ADDOPTS=-x` stopped each student's tests at their first failure
    (every student with a failing test became a grader error), and a plugin named in
    `PYTEST_PLUGINS` joined every session. The shell keeps its settings for its own runs."""
    (tmp_path / "shell_plugin.py").write_text(EMPTIES_EVERY_SESSION, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTEST_ADDOPTS", "-x")
    monkeypatch.setenv("PYTEST_PLUGINS", "shell_plugin")
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    [result] = grade_batch(BatchRequest(pack=PACK, sources=[SAMPLE])).results
    expected = json.loads(expected_path(SAMPLE).read_text(encoding="utf-8"))
    assert mismatches(result, expected) == []
    assert (os.environ["PYTEST_ADDOPTS"], os.environ["PYTEST_PLUGINS"]) == ("-x", "shell_plugin")
    assert "PYTEST_DISABLE_PLUGIN_AUTOLOAD" not in os.environ
