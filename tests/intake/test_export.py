"""`grade export`: each LMS's documented grade-import columns, every student's id kept on the
round trip (ingest -> grade -> export), feedback zips in the layout each LMS uploads, and
cells a spreadsheet never evaluates."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import pytest

from graders.cli import main
from graders.pack import get_pack

from .conftest import results_of

PACK = get_pack("altnim")
CRITERIA = [c.id for c in PACK.declaration.criteria]
# The columns shared/specs/lms.md documents for each LMS's import file.
HEADERS = {
    "moodle": ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
               "Grade can be changed", "Last modified (submission)", "Last modified (grade)",
               "Feedback comments"],
    # the roster's own grade column (exports.py), never a new one
    "canvas": ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "AltNim (4401)"],
    "brightspace": ["OrgDefinedId", "Username", "AltNim Points Grade", "End-of-Line Indicator"],
    "markus": ["Group", *CRITERIA, "deductions"],
    "gradescope": ["Name", "SID", "Email", "Total Score", "Max Points"],
}


def _export(graded_export, fmt: str, tmp_path: Path) -> tuple[list[list[str]], zipfile.ZipFile,
                                                               dict[str, dict]]:
    _, out, _, _ = graded_export(fmt)
    target = tmp_path / "export"
    assert main(["export", "altnim", "--format", fmt, "--report", str(out),
                 "--out", str(target)]) == 0
    text = (target / f"{fmt}-grades.csv").read_text(encoding="utf-8")
    feedback = zipfile.ZipFile(target / f"{fmt}-feedback.zip")
    return list(csv.reader(io.StringIO(text))), feedback, results_of(out)


@pytest.mark.parametrize("fmt", sorted(HEADERS))
def test_each_format_has_the_documented_columns_and_keeps_every_id(graded_export, fmt,
                                                                     tmp_path):
    rows, feedback, results = _export(graded_export, fmt, tmp_path)
    assert rows[0] == HEADERS[fmt]
    body = rows[2:] if fmt == "canvas" else rows[1:]
    assert all(len(row) == len(HEADERS[fmt]) for row in body)
    key = {"moodle": 0, "canvas": 1, "brightspace": 1, "markus": 0, "gradescope": 1}[fmt]
    exported = {row[key] for row in body}
    wanted = {_id_cell(fmt, r) for r in results.values()}
    assert exported == wanted and len(body) == len(results)
    marks = {"moodle": 4, "canvas": 5, "brightspace": 2, "gradescope": 3}
    if fmt in marks:
        by_id = {row[key]: row[marks[fmt]] for row in body}
        for result in results.values():
            assert float(by_id[_id_cell(fmt, result)]) == result["total"]
    submitted = [r for r in results.values() if r["status"] != "missing"]
    assert len(feedback.namelist()) == len(submitted)


def _id_cell(fmt: str, result: dict) -> str:
    """The cell the LMS matches ``result``'s row by, as the export must write it."""
    if fmt == "moodle":
        return f"Participant {result['lms_id']}"
    if fmt == "brightspace":
        return f"#{result['lms'].get('username', '')}"
    if fmt == "markus":
        return result["lms"].get("group", result["lms_id"])
    return result["lms_id"]


def test_canvas_gives_the_points_possible_row_and_matches_rows_by_id(graded_export, tmp_path):
    rows, feedback, _ = _export(graded_export, "canvas", tmp_path)
    assert rows[1][0].strip() == "Points Possible" and rows[1][-1] == "100"
    names = sorted(feedback.namelist())
    assert names[0] == "doejane_12345_62345_feedback.html"


def test_moodle_feedback_folders_are_named_like_the_download(graded_export, tmp_path):
    rows, feedback, _ = _export(graded_export, "moodle", tmp_path)
    assert "Zoë Ölund_12346_assignsubmission_file_/feedback.html" in feedback.namelist()
    jane = next(row for row in rows if row[0] == "Participant 12345")
    assert jane[7] == "Tuesday, 5 March 2024, 10:58 PM"
    assert jane[9].startswith("100 / 100.")
    absent = next(row for row in rows if row[0] == "Participant 12348")
    assert absent[3:5] == ["No submission", "0"]


def test_brightspace_rows_end_with_the_end_of_line_indicator(graded_export, tmp_path):
    rows, _, _ = _export(graded_export, "brightspace", tmp_path)
    assert all(row[-1] == "#" for row in rows[1:])
    assert {row[0] for row in rows[1:]} == {"#912345", "#912346", "#912347", "#912348"}


def test_every_cell_is_safe_in_a_spreadsheet(tmp_path):
    report = tmp_path / "report"
    report.mkdir()
    hostile = {"student": "=HYPERLINK(\"http://evil\")", "assignment": "altnim",
               "assignment_title": PACK.title, "status": "graded", "isolation": "bubblewrap",
               "total": 50, "max_total": 100, "lms_id": "@SUM(1+1)",
               "display_name": "+cmd|' /C calc'!A0", "email": "-2+3@example.edu",
               "lms": {"group": "=1+1", "sis_id": "\t=1", "username": "\r=2"}}
    (report / "results.json").write_text(json.dumps([hostile]))
    for fmt in HEADERS:  # no LMS ids here: written only by force
        assert main(["export", "altnim", "--format", fmt, "--report", str(report),
                     "--out", str(tmp_path / fmt), "--column", "AltNim (4401)", "--force"]) == 0
        text = (tmp_path / fmt / f"{fmt}-grades.csv").read_text(encoding="utf-8")
        for row in list(csv.reader(io.StringIO(text)))[1:]:
            for cell in row:
                assert not cell.startswith(("=", "+", "@", "\t", "\r")), (fmt, cell)
                assert not cell.startswith("-") or cell == "-" or cell.lstrip("-").replace(
                    ".", "").isdigit(), (fmt, cell)
