"""The round trip, per LMS: grade its export, `grade export` it, read the CSV back as that LMS
documents its import (shared/specs/lms.md: the id column rows are matched by, the grade column,
Canvas's Points Possible row, Brightspace's End-of-Line Indicator), and get the mark
`marks.csv` holds for every student, under that student's own LMS id."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from graders.cli import main

from .conftest import results_of


def _moodle(rows: list[dict[str, str]]) -> dict[str, float]:
    """Moodle's worksheet upload: ``Identifier`` (``Participant <id>``) and ``Grade``."""
    return {row["Identifier"].removeprefix("Participant "): float(row["Grade"]) for row in rows}


def _canvas(rows: list[dict[str, str]]) -> dict[str, float]:
    """Canvas's gradebook import: rows matched by ``ID``; the assignment's existing column
    ``<name> (<assignment id>)``; the ``Points Possible`` row is not a student."""
    [column] = [name for name in rows[0] if name.endswith("(4401)")]
    assert rows[0]["Student"].strip() == "Points Possible" and rows[0][column] == "100"
    return {row["ID"]: float(row[column]) for row in rows[1:]}


def _brightspace(rows: list[dict[str, str]]) -> dict[str, float]:
    """Brightspace's grades import: ``OrgDefinedId`` (``#`` first), ``<item> Points Grade``,
    and the ``End-of-Line Indicator`` ``#`` ending every row."""
    [column] = [name for name in rows[0] if name.endswith(" Points Grade")]
    assert list(rows[0])[-1] == "End-of-Line Indicator"
    assert all(row["End-of-Line Indicator"] == "#" for row in rows)
    return {row["OrgDefinedId"].removeprefix("#"): float(row[column]) for row in rows}


def _gradescope(rows: list[dict[str, str]]) -> dict[str, float]:
    """Gradescope's score upload: matched by ``SID``, the mark in ``Total Score``."""
    return {row["SID"]: float(row["Total Score"]) for row in rows}


def _markus(rows: list[dict[str, str]]) -> dict[str, float]:
    """MarkUs's marks upload: the group, then one column per criterion (deductions last)."""
    return {row["Group"]: round(sum(float(v) for k, v in row.items() if k != "Group"), 2)
            for row in rows}


IMPORTS = {"moodle": _moodle, "canvas": _canvas, "brightspace": _brightspace,
           "gradescope": _gradescope, "markus": _markus}


def _lms_id(fmt: str, result: dict) -> str:
    """The id the LMS knows the student by (from the export or its own gradebook)."""
    if fmt == "brightspace":
        return result["lms"]["sis_id"]
    if fmt == "markus":
        return result["lms"]["group"]
    return result["lms_id"]


@pytest.mark.parametrize("fmt", sorted(IMPORTS))
def test_the_lms_imports_the_marks_of_marks_csv_under_each_students_id(graded_export, fmt,
                                                                       tmp_path: Path):
    _, out, _, _ = graded_export(fmt)
    assert main(["export", "altnim", "--format", fmt, "--report", str(out),
                 "--out", str(tmp_path)]) == 0
    text = (tmp_path / f"{fmt}-grades.csv").read_text(encoding="utf-8")
    imported = IMPORTS[fmt](list(csv.DictReader(io.StringIO(text))))
    marks = {row["student"]: float(row["total"])
             for row in csv.DictReader(io.StringIO((out / "marks.csv").read_text("utf-8")))}
    results = results_of(out)
    assert imported == {_lms_id(fmt, results[student]): total
                        for student, total in marks.items()}
    assert len(imported) == len(results)  # every student, one row each
