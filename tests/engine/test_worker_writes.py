"""Issue 29 item 4: the pool worker that graded a share writes its students' reports, byte for
byte what the parent's serial writer writes; and what is the pack's, not a student's, is kept
by the grading process from one share to the next."""

from __future__ import annotations

import copy
import multiprocessing
import shutil
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graders import kept
from graders.batch import BatchRequest, grade_batch
from graders.feedback import FeedbackWriter
from graders.intake.base import Found
from graders.outcomes import GradeOptions, identify
from graders.overrides import FILE_NAME
from graders.pack import get_pack
from graders.report import ReportWriter
from graders.stages import Writing, write, write_share

PACK = get_pack("altnim")
SAMPLES = PACK.fixtures_dir / "submissions"
NAMES = ("correct", "extra_import", "syntax_error")
DUE = datetime(2026, 11, 1, 23, 59, tzinfo=UTC)
OVERRIDE = """[[override]]
student = "extra_import"
criterion = "total"
points = 1
comment = "seen in office hours"
by = "ta"
at = "2026-11-02T10:00:00+00:00"
"""


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> list:
    """The batch's results, graded once, written nowhere."""
    folder = tmp_path_factory.mktemp("batch")
    for name in NAMES:
        shutil.copytree(SAMPLES / name, folder / name)
    outcome = grade_batch(BatchRequest(pack=PACK, sources=sorted(folder.iterdir()), due=DUE))
    return outcome.results


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_pool_worker_writes_the_bytes_the_serial_writer_writes(graded, tmp_path):
    who = Found(id="correct", source=SAMPLES / "correct", lms_id="u123",
                display_name="Ada Lovelace", email="ada@example.edu", submitted_at=DUE)
    serial, pooled = tmp_path / "serial", tmp_path / "pooled"
    for out in (serial, pooled):
        out.mkdir()
        (out / FILE_NAME).write_text(OVERRIDE, encoding="utf-8")
    report = ReportWriter(serial, PACK)
    feedback = FeedbackWriter(serial / "feedback", PACK, DUE)
    for result in copy.deepcopy(graded):
        if result.student == who.id:
            identify(result, who)
        assert write(result, report, feedback) == []
    writing = Writing(pooled, feedback=True, due=DUE, identities={who.id: who})
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        written = pool.submit(write_share, copy.deepcopy(graded), PACK.id, GradeOptions(),
                              writing).result()
    assert written.problems == {name: [] for name in NAMES}
    assert {r.student: r.display_name for r in written.results}["correct"] == "Ada Lovelace"
    assert [r.total for r in written.results if r.student == "extra_import"] == [1]
    assert len(_files(serial)) >= 2 * len(NAMES) + 1  # pages, JSON twins, feedback pages
    assert _files(pooled) == _files(serial)


def test_a_pool_batch_leaves_the_parent_no_student_report_to_write(tmp_path, monkeypatch):
    folder, out = tmp_path / "batch", tmp_path / "out"
    for name in NAMES:
        shutil.copytree(SAMPLES / name, folder / name)
    calls: list[str] = []
    original = ReportWriter.write_student

    def counted(self: ReportWriter, result) -> None:
        calls.append(result.student)
        original(self, result)

    monkeypatch.setattr(ReportWriter, "write_student", counted)  # this process only
    outcome = grade_batch(BatchRequest(pack=PACK, sources=sorted(folder.iterdir()), jobs=2,
                                       out_dir=out, due=DUE))
    assert calls == []  # every page came from a pool worker
    assert outcome.grader_errors == []
    for name in NAMES:
        for page in (f"students/{name}.html", f"students/{name}.json", f"feedback/{name}.html"):
            assert (out / page).is_file(), page
    assert (out / "index.html").is_file()
    assert len((out / "marks.csv").read_text().splitlines()) == 1 + len(NAMES)


def test_reference_answers_are_kept_per_pack_digest_and_never_without_one():
    kept.forget()
    first = kept.reference_answers("digest-a")
    first["reference_call:x"] = 1
    assert kept.reference_answers("digest-a") is first
    other = kept.reference_answers("digest-b")
    assert other == {} and other is not first
    assert kept.reference_answers("digest-a") == {}  # the old pack's answers were dropped
    unshared = kept.reference_answers("")
    unshared["reference_call:x"] = 2
    assert kept.reference_answers("") == {}
    kept.forget()


def test_a_generator_made_once_runs_once_per_arguments_and_hands_out_copies():
    calls: list[int] = []

    @kept.made_once
    def games(seed: int) -> list[list[int]]:
        calls.append(seed)
        return [[seed, seed + 1]]

    first = games(3)
    first[0].append(99)  # a test changing what it got
    assert games(3) == [[3, 4]]
    assert games(4) == [[4, 5]]
    assert calls == [3, 4]
