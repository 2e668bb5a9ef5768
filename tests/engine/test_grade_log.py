"""`grade.log`: each stage of grading, for each student, logged in the report folder."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from graders.cli import main
from graders.gradelog import LOG_NAME, batch_log
from graders.pack import get_pack

PACK = get_pack("altnim")
SAMPLES = PACK.fixtures_dir / "submissions"
STAGES = ("intake", "prepare", "rules", "session", "mark", "write")


def test_a_grade_run_logs_every_stage_for_every_student(tmp_path: Path):
    batch = tmp_path / "batch"
    for name in ("correct", "extra_import"):
        shutil.copytree(SAMPLES / name, batch / name)
    out = tmp_path / "reports"
    assert main([str(batch), "-a", "altnim", "--out", str(out), "--jobs", "1", "-v"]) == 0
    lines = (out / LOG_NAME).read_text(encoding="utf-8").splitlines()
    for student in ("correct", "extra_import"):
        for stage in STAGES:
            assert any(f" {stage}: {student}" in line for line in lines), (stage, student)
    marked = [line for line in lines if " mark: extra_import:" in line]
    assert marked and "85 / 100 (graded)" in marked[0]
    assert any(" rules: extra_import: " in line and "forbidden-import" in line
               for line in lines)
    assert any(" DEBUG " in line for line in lines)  # -v: the details too


def test_without_verbose_the_log_keeps_info_and_leaves_out_debug(tmp_path: Path):
    engine = logging.getLogger("graders.stages")
    with batch_log(tmp_path, verbose=False) as path:
        engine.info("prepare: bob: a.py")
        engine.debug("session: bob: details")
    assert path is not None
    text = path.read_text(encoding="utf-8")
    assert "INFO    prepare: bob: a.py" in text and "details" not in text
    engine.info("after the batch")  # the handler is gone: nothing more reaches the file
    assert "after the batch" not in path.read_text(encoding="utf-8")


def test_the_pre_check_writes_no_log():
    with batch_log(None) as path:
        assert path is None


def test_a_name_that_is_not_utf8_or_holds_escapes_is_logged_escaped(tmp_path: Path, caplog):
    engine = logging.getLogger("graders.stages")
    name = "bad_\udcff_name\x1b[2J\u202e"
    with caplog.at_level(logging.INFO, logger="graders"), batch_log(tmp_path) as path:
        engine.info("prepare: %s: %s", name, "a.py")
    assert path is not None
    logged = path.read_text(encoding="utf-8")
    assert "prepare: bad_\\udcff_name\\x1b[2J\\u202e: a.py" in logged
    # What pytest captured can travel to an xdist controller: every message encodes.
    assert all(record.getMessage().encode("utf-8") for record in caplog.records)
