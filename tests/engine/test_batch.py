"""Batch-level guarantees: one student's trouble never touches another's marks."""

from __future__ import annotations

import shutil
from pathlib import Path

from graders.batch import BatchRequest, grade_batch
from graders.packs import get_pack
from graders.report import ReportWriter

PACK = get_pack("altnim")
SAMPLES = PACK.fixtures_dir / "submissions"


def test_a_report_that_cannot_be_written_is_a_grader_error_for_that_student_only(
    tmp_path: Path, monkeypatch
):
    batch = tmp_path / "batch"
    for name in ("correct", "extra_import", "missing_header"):
        shutil.copytree(SAMPLES / name, batch / name)
    real_write = ReportWriter.write_student

    def failing_write(self, result):
        if result.student == "extra_import":
            raise OSError("disk full")
        real_write(self, result)

    monkeypatch.setattr(ReportWriter, "write_student", failing_write)
    outcome = grade_batch(BatchRequest(pack=PACK, sources=sorted(batch.iterdir()),
                                       out_dir=tmp_path / "reports"))
    results = {result.student: result for result in outcome.results}
    assert results["correct"].total == 100 and results["correct"].status == "graded"
    assert results["missing_header"].total == 95 and results["missing_header"].status == "graded"
    assert results["extra_import"].status == "grader-error"
    assert not outcome.ok and "disk full" in " ".join(outcome.grader_errors)
