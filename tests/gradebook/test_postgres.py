"""A shared PostgreSQL gradebook on a real server (see conftest.py): runs and changes as on
SQLite, and two TAs on two machines recording overrides at once, none lost."""

from __future__ import annotations

import concurrent.futures
import json
import multiprocessing as mp
import os
import subprocess
import sys
from pathlib import Path

from graders import overrides
from graders.gradebook import open_gradebook
from graders.gradebook.changes import last_changes
from graders.gradebook.pages import write_term
from graders.gradebook.sync import sync_overrides
from graders.results import write_atomic

from .build import record, result

STUDENTS = ("alice", "bob", "carol", "dave", "erin", "frank")
# Each TA marks every student, one criterion each, every call a `grade override` of its own.
TA_SCRIPT = """
import sys
from graders.cli import main
folder, by, criterion = sys.argv[1:4]
for student in sys.argv[4:]:
    code = main(["override", "altnim", student, "-c", criterion, "-p", "5", "-m",
                 f"{by} checked {student}", "--by", by, "--out", folder])
    if code:
        sys.exit(code)
"""


def test_runs_and_changes_on_postgresql(pg_url, tmp_path):
    book = open_gradebook(pg_url, tmp_path)
    record(book, [result("altnim", "alice"), result("altnim", "bob")])
    record(book, [result("altnim", "alice", 0.5), result("altnim", "bob")], pack="p2")
    assert [(c.name, c.why) for c in last_changes(book.runs("altnim")) or []] == [
        ("alice", "the pack changed")]
    assert "marks changed since the last run: 1 students" in write_term(book, tmp_path)\
        .read_text()
    book.close()


def _open_and_record(url: str, folder: str, name: str) -> None:
    book = open_gradebook(url, Path(folder))
    record(book, [result("altnim", name)])
    book.close()


def test_two_runs_opening_a_new_postgresql_gradebook_at_once_both_land(pg_url, tmp_path):
    spawn = mp.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=spawn) as pool:
        list(pool.map(_open_and_record, [pg_url] * 2, [str(tmp_path)] * 2, ["alice", "bob"]))
    book = open_gradebook(pg_url, tmp_path)
    assert sorted(r.name for run in book.runs("altnim") for r in run.results) == ["alice", "bob"]
    book.close()


def machine(root: Path) -> Path:
    """A TA's machine: the assignment's report folder as `grade` left it there."""
    folder = root / "reports" / "altnim"
    results = [json.loads(result("altnim", name, 0.5).to_json()) for name in STUDENTS]
    write_atomic(folder / "results.json", json.dumps(results))
    return folder


def test_two_tas_recording_overrides_at_once_both_keep_every_one(pg_url, tmp_path):
    book = open_gradebook(pg_url, tmp_path)
    record(book, [result("altnim", name, 0.5) for name in STUDENTS])
    here, there = machine(tmp_path / "ta-kim"), machine(tmp_path / "ta-lee")
    env = dict(os.environ, GRADERS_GRADEBOOK=pg_url)
    writers = [
        subprocess.Popen([sys.executable, "-c", TA_SCRIPT, str(folder), by, criterion,
                          *STUDENTS], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
        for folder, by, criterion in ((here, "TA Kim", "eval"), (there, "TA Lee", "game"))
    ]
    for writer in writers:
        out, err = writer.communicate(timeout=900)
        assert writer.returncode == 0, out + err
    rows = book.override_rows("altnim")
    assert sorted((r.by, r.student, r.criterion, r.from_points) for r in rows) == sorted(
        [("TA Kim", s, "eval", 7.5) for s in STUDENTS]
        + [("TA Lee", s, "game", 5.0) for s in STUDENTS])
    for folder in (here, there):  # each machine's file gets the other TA's overrides too
        sync_overrides(book, "altnim", folder)
        entries = overrides.load(folder / overrides.FILE_NAME)[0]
        assert sorted((e.by, e.student) for e in entries) == sorted(
            (r.by, r.student) for r in rows)
    book.close()
