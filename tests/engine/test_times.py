"""Submission times are the instructor's (``grade --times``), checked before anyone is graded."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from graders.errors import GraderError
from graders.times import load_times


def times_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "times.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_times_with_offsets_and_z_are_read(tmp_path: Path):
    path = times_file(tmp_path, "student,submitted_at\nalice,2015-03-05T23:10:00-05:00\n\n"
                      "Zoë Ménard,2015-03-06T03:00:00Z\n")
    times = load_times(path)
    assert times["alice"] == datetime(2015, 3, 5, 23, 10, tzinfo=timezone(timedelta(hours=-5)))
    assert times["Zoë Ménard"] == datetime(2015, 3, 6, 3, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name,time\nalice,2015-03-05T23:10:00Z\n", "line 1: the header"),
        ("student,submitted_at\nalice,2015-03-05T23:10:00\n",
         "line 2: '2015-03-05T23:10:00' has no timezone"),
        ("student,submitted_at\nalice,yesterday\n", "line 2: 'yesterday' is not an ISO 8601"),
        ("student,submitted_at\nalice,2015-03-05T23:10:00Z\nalice,2015-03-05T23:11:00Z\n",
         "line 3: 'alice' has a time already"),
        ("student,submitted_at\n,2015-03-05T23:10:00Z\n", "line 2: expected"),
    ],
)
def test_a_bad_times_file_names_its_line(tmp_path: Path, text: str, words: str):
    with pytest.raises(GraderError, match=words.replace("(", r"\(")):
        load_times(times_file(tmp_path, text))


def test_each_time_remembers_its_line_and_a_name_no_submission_has_is_refused(tmp_path: Path):
    path = times_file(tmp_path, "student,submitted_at\nalice,2015-03-05T23:10:00Z\n\n"
                      "bob,2015-03-05T23:20:00Z\n")
    times = load_times(path)
    assert times.lines == {"alice": 2, "bob": 4}
    times.check_known({"alice", "bob", "carol"})
    with pytest.raises(GraderError, match="line 4: no submission is called 'bob'"):
        times.check_known({"alice", "carol"})
