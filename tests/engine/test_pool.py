"""The worker pool: results come back through futures, the workers write the reports, and no
grading process outlives `grade`."""

from __future__ import annotations

import csv
import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from graders import parallel, pipeline
from graders.batch import BatchRequest, grade_batch
from graders.cli import main
from graders.commands import run
from graders.pack import get_pack

PACK = get_pack("altnim")
SAMPLES = PACK.fixtures_dir / "submissions"
TIMES = {"graded_at", "seconds"}
HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    folder = tmp_path / "batch"
    for name in ("correct", "extra_import", "syntax_error"):
        shutil.copytree(SAMPLES / name, folder / name)
    return folder


def _descendants() -> list[str]:
    """Command lines of every live process below this one (multiprocessing's resource tracker
    and fork server, helpers that live as long as this interpreter and grade nobody, aside;
    the workers forked from the server are counted: their command line is the server's)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, frontier = [], [os.getpid()]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent:
                frontier.append(pid)
                try:
                    command = (Path("/proc") / str(pid) / "cmdline").read_bytes()
                except OSError:
                    continue
                text = command.replace(b"\0", b" ").decode(errors="replace")
                helper = parent == os.getpid() and any(name in text for name in HELPERS)
                if text and not helper:
                    found.append(text)
    return found


def _without_times(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    for test in data["tests"]:
        test.pop("seconds")
    return {key: value for key, value in data.items() if key not in TIMES}


def test_one_job_and_two_jobs_write_the_same_reports(batch, tmp_path):
    single, double = tmp_path / "one", tmp_path / "two"
    assert main([str(batch), "--out", str(single), "--jobs", "1"]) == 0
    assert main([str(batch), "--out", str(double), "--jobs", "2"]) == 0
    assert (single / "marks.csv").read_text() == (double / "marks.csv").read_text()
    for name in ("correct", "extra_import", "syntax_error"):
        one = _without_times(single / "students" / f"{name}.json")
        two = _without_times(double / "students" / f"{name}.json")
        assert one == two


def test_fresh_jobs_regrade_a_tampered_result_and_leave_no_process(batch, tmp_path):
    # issue 13 point 5: the parent took any old JSON with the right digest on its first poll,
    # before the jobs had written, and returned while they were still running.
    out = tmp_path / "reports"
    assert main([str(batch), "--out", str(out), "--jobs", "2"]) == 0
    stored = out / "students" / "extra_import.json"
    data = json.loads(stored.read_text())
    data["total"] = 42.0
    stored.write_text(json.dumps(data))
    assert main([str(batch), "--out", str(out), "--fresh", "--jobs", "2"]) == 0
    with (out / "marks.csv").open() as handle:
        rows = {row["student"]: row["total"] for row in csv.DictReader(handle)}
    assert rows == {"correct": "100", "extra_import": "85", "syntax_error": "0"}
    assert json.loads(stored.read_text())["total"] == 85
    assert _descendants() == []


def test_an_interrupt_stops_every_worker(batch, tmp_path):
    for copy in range(3):
        shutil.copytree(SAMPLES / "correct", batch / f"copy{copy}")

    def interrupt(result):
        raise KeyboardInterrupt

    request = BatchRequest(pack=PACK, sources=sorted(batch.iterdir()), out_dir=tmp_path / "r",
                           jobs=2, progress=interrupt)
    with pytest.raises(KeyboardInterrupt):
        grade_batch(request)
    assert _descendants() == []


def test_the_default_job_count_fits_the_allowed_range(batch, tmp_path, monkeypatch):
    # issue 13 point 7: on a 128-CPU machine the default was outside IntRange(1, 64).
    monkeypatch.setattr(os, "cpu_count", lambda: 128)
    assert run.default_jobs() == 64
    assert main([str(batch / "correct"), "-a", "altnim", "--out", str(tmp_path)]) == 0


def test_the_pool_starts_while_the_parent_prepares_and_none_is_left(batch, tmp_path,
                                                                    monkeypatch):
    """Its workers import the engine while the parent prepares the submissions; a rerun that
    reuses every result and a batch of one start none to wait for; no worker outlives any."""
    seen: list[list[str]] = []
    real = pipeline.prepare_all

    def watched(*args, **kwargs):
        seen.append([p for p in _descendants() if "multiprocessing" in p])
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "prepare_all", watched)
    out = tmp_path / "reports"
    request = BatchRequest(pack=PACK, sources=sorted(batch.iterdir()), out_dir=out, jobs=2)
    assert len(grade_batch(request).results) == 3
    assert len(seen[-1]) == 2, seen  # both workers already started
    assert _descendants() == []
    again = grade_batch(request)
    assert again.reused == 3 and _descendants() == []
    alone = replace(request, sources=[batch / "correct"], out_dir=tmp_path / "alone")
    assert [r.total for r in grade_batch(alone).results] == [100]
    assert seen[-1] == [] and _descendants() == []


def test_workers_see_the_parents_environment_as_it_is_now(monkeypatch):
    """Workers are forked from a fork server started with the environment of its day: each
    worker takes the parent's environment as it is when the pool starts."""
    earlier = parallel._pool(2)  # noqa: SLF001 - the pool itself, without a batch around it
    try:
        assert earlier.submit(os.getenv, "GRADERS_POOL_MARK").result() is None
    finally:
        earlier.shutdown()
    monkeypatch.setenv("GRADERS_POOL_MARK", "set after the server started")
    pool = parallel._pool(2)  # noqa: SLF001
    try:
        assert pool.submit(os.getenv, "GRADERS_POOL_MARK").result() == \
            "set after the server started"
    finally:
        pool.shutdown()
    assert _descendants() == []
