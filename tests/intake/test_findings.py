"""Issue 26's findings, each with an export in that LMS's real naming (shared/specs/lms.md):
who a submission is, what a class zip holds, and nothing lost on the way back to the LMS.

These tests read exports and write LMS files from results as `grade` writes them; none of
them grades code (the graded round trip is tests/intake/test_roundtrip.py).
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import zipfile
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

import click
import pytest

from graders.cli import main
from graders.commands.override import find_student
from graders.errors import GraderError
from graders.export import part
from graders.handin import NESTING, read_files
from graders.intake import ingest
from graders.intake.base import Found
from graders.intake.brightspace import parse_when
from graders.intake.people import settle
from graders.intake.roster import load_roster
from graders.outcomes import team_copy
from graders.pack import get_pack
from graders.pipeline import due_zone
from graders.results import SubmissionResult
from graders.times import load_extensions

NIM = get_pack("game_of_nim")
CODE = "def play():\n    return 1\n"
WHEN = "Mar 5, 2024 1102 PM"
BRIGHTSPACE_HEADER = ("OrgDefinedId,Username,Last Name,First Name,Email,"
                      "Project 2: Game of Nim Points Grade,End-of-Line Indicator")


def _write(path: Path, text: str = CODE) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _brightspace(root: Path, names: dict[str, str], roster: list[tuple[str, str, str]]) -> Path:
    """A Brightspace download (folder user id -> name part) and its grades export
    (OrgDefinedId, last, first)."""
    for number, (user, name) in enumerate(names.items(), start=1):
        _write(root / "export" / f"{800000 + number}-{user} - {name}- {WHEN}" / "game_of_nim.py")
    _write(root / "export" / "index.html", "<html></html>")
    lines = [BRIGHTSPACE_HEADER] + [
        f"#{org},#{first.split()[0].lower()}{org},{last},{first},{org}@example.edu,,#"
        for org, last, first in roster]
    return _write(root / "grades.csv", "\n".join(lines) + "\n")


def _settled(root: Path, roster: Path):
    intake = ingest(root / "export", root / "stage")
    return intake, settle(NIM, intake.found, roster=load_roster(roster))


# 1. Brightspace folders named "Last, First", and compound names in the "Last First" form


@pytest.mark.parametrize(("written", "meant"), [
    ("Nov 4, 2026 115 PM", (13, 15)), ("Nov 4, 2026 105 PM", (13, 5)),
    ("Nov 4, 2026 1259 AM", (0, 59)), ("Mar 5, 2024 1102 PM", (23, 2)),
    ("Mar 5, 2024 11:02 PM", (23, 2)), ("Mar 5, 2024, 9:02 AM", (9, 2)),
    ("Mar 5, 2024 23:02", (23, 2)), ("2024-03-05 23:02", (23, 2))])
def test_a_brightspace_time_without_its_colon_keeps_its_minutes(written, meant):
    """strptime reads "115 PM" as 11:05 PM: 1:15 PM's submission would be the newer one."""
    when = parse_when(written)
    assert when is not None and (when.hour, when.minute) == meant


def test_a_brightspace_folder_whose_date_cannot_be_read_is_still_the_students(tmp_path):
    folders = {"123-3001 - Poe Pam- Mar 5, 2024 at eleven": None,
               "123-3002 - Mary Smith-Jones- Mar 5, 2024 23:02": "Mary Smith-Jones"}
    for folder in folders:
        _write(tmp_path / "export" / folder / "game_of_nim.py")
    intake = ingest(tmp_path / "export", tmp_path / "stage")
    assert intake.layout == "brightspace" and not intake.notes
    got = {found.lms_id: found for found in intake.found}
    assert sorted(got) == ["3001", "3002"] and got["3002"].display_name == "Mary Smith-Jones"
    assert got["3001"].submitted_at is None
    assert any("could not be read" in note for note in got["3001"].notes)


def test_brightspace_names_in_every_order_find_their_roster_row(tmp_path):
    roster = _brightspace(tmp_path, {
        "30187": "Brown, Olivia",                  # Last, First
        "30188": "García López María José",        # Last First, compound surname
        "30189": "Van der Berg Pieter",            # Last First, compound surname
        "30190": "Amara Okafor",                   # First Last
    }, [("1001", "Brown", "Olivia"), ("1002", "García López", "María José"),
        ("1003", "Van der Berg", "Pieter"), ("1004", "Okafor", "Amara")])
    intake, settled = _settled(tmp_path, roster)
    assert intake.layout == "brightspace"
    assert settled.missing == []
    rows = {f.lms_id: (f.lms.get("sis_id"), f.id) for f in settled.found}
    assert rows == {"30187": ("1001", "Olivia Brown (30187)"),
                    "30188": ("1002", "María José García López (30188)"),
                    "30189": ("1003", "Pieter Van der Berg (30189)"),
                    "30190": ("1004", "Amara Okafor (30190)")}
    assert not any("roster" in note for f in settled.found for note in f.notes)


# 2. A zip of per-student folders is a class


def _class_zip(tmp_path: Path, wrapper: str = "") -> Path:
    folder = tmp_path / "class"
    for name in ("janedoe", "bobsmith", "carolng"):
        _write(folder / wrapper / name / "game_of_nim.py")
    _write(folder / wrapper / "carolng" / "helpers" / "board.py")
    return Path(shutil.make_archive(str(tmp_path / "submissions"), "zip", folder))


@pytest.mark.parametrize("layout", [None, "plain", "markus"])
def test_a_zip_of_student_folders_is_a_class_in_every_layout_that_takes_folders(tmp_path,
                                                                                 layout):
    intake = ingest(_class_zip(tmp_path, "MarkUs download"), tmp_path / "stage", layout)
    assert intake.layout == (layout or "plain")
    assert sorted(f.id for f in intake.found) == ["bobsmith", "carolng", "janedoe"]
    assert any("one folder per student" in note for note in intake.notes)


def test_a_class_zip_keeps_the_student_who_handed_in_no_code(tmp_path):
    """One student uploaded a PDF: the zip is still a class, and they get their own row."""
    folder = tmp_path / "class"
    for name in ("janedoe", "bobsmith", "carolng"):
        _write(folder / "A2" / name / "game_of_nim.py")
    (folder / "A2" / "erin").mkdir()
    (folder / "A2" / "erin" / "game_of_nim.pdf").write_bytes(b"%PDF-1.4\n")
    archive = Path(shutil.make_archive(str(tmp_path / "A2 submissions"), "zip", folder))
    for layout in (None, "markus"):
        intake = ingest(archive, tmp_path / f"stage-{layout}", layout)
        assert sorted(f.id for f in intake.found) == ["bobsmith", "carolng", "erin", "janedoe"]


def test_a_students_project_with_a_folder_of_documents_stays_one_submission(tmp_path):
    folder = tmp_path / "mine"
    _write(folder / "src" / "game_of_nim.py")
    _write(folder / "tests" / "test_nim.py")
    (folder / "docs").mkdir()
    (folder / "docs" / "report.pdf").write_bytes(b"%PDF-1.4\n")
    archive = Path(shutil.make_archive(str(tmp_path / "janedoe"), "zip", folder))
    assert [f.id for f in ingest(archive, tmp_path / "stage").found] == ["janedoe"]


def _without_utf8_flag(archive: Path) -> Path:
    """``archive`` as Info-ZIP's ``zip -r`` writes it: UTF-8 names, the UTF-8 flag unset."""
    data = bytearray(archive.read_bytes())
    for signature, flags_at in ((b"PK\x03\x04", 7), (b"PK\x01\x02", 9)):
        at = data.find(signature)
        while at != -1:
            data[at + flags_at] &= ~0x08 & 0xFF  # bit 11: the high byte of the flag word
            at = data.find(signature, at + 4)
    archive.write_bytes(bytes(data))
    return archive


def test_utf8_names_without_the_utf8_flag_keep_their_letters(tmp_path):
    """An export unzipped and zipped again on Linux: Müller keeps her row and her name."""
    folder = tmp_path / "class"
    for name in ("Anna Müller_1001_assignsubmission_file_", "李小龙_1002_assignsubmission_file_",
                 "Bob Smith_1003_assignsubmission_file_"):
        _write(folder / name / "game_of_nim.py")
    archive = _without_utf8_flag(Path(shutil.make_archive(str(tmp_path / "export"), "zip",
                                                          folder)))
    with zipfile.ZipFile(archive) as raw:
        assert any("├" in name for name in raw.namelist())  # what zipfile alone reads
    intake = ingest(archive, tmp_path / "stage")
    assert sorted(f.id for f in intake.found) == ["Anna Müller (1001)", "Bob Smith (1003)",
                                                  "李小龙 (1002)"]


def test_an_empty_student_folder_in_a_zip_gets_its_row_as_unzipped(tmp_path):
    folder = tmp_path / "class"
    for name in ("Ann Lee_1001_assignsubmission_file_", "Bob Ray_1002_assignsubmission_file_"):
        _write(folder / name / "game_of_nim.py")
    (folder / "Eve Empty_1003_assignsubmission_file_").mkdir()
    archive = Path(shutil.make_archive(str(tmp_path / "export"), "zip", folder))
    ids = {f.id for f in ingest(archive, tmp_path / "stage").found}
    assert ids == {f.id for f in ingest(folder, tmp_path / "stage-folder").found}
    assert "Eve Empty (1003)" in ids


def test_a_zip_inside_a_students_zip_is_opened(tmp_path):
    inner = tmp_path / "A2"
    _write(inner / "game_of_nim.py")
    level2 = Path(shutil.make_archive(str(tmp_path / "build" / "A2"), "zip", inner))
    (tmp_path / "outer").mkdir()
    shutil.copy(level2, tmp_path / "outer")
    level1 = Path(shutil.make_archive(str(tmp_path / "student" / "submission"), "zip",
                                      tmp_path / "outer"))
    problems: list = []
    files = read_files(level1.parent, problems)
    assert "submission/A2/game_of_nim.py" in files and not problems
    # a zip that holds itself, or nesting past NESTING, ends with a note, not a loop
    deep = level1
    for depth in range(NESTING + 1):
        (tmp_path / f"wrap{depth}").mkdir()
        shutil.copy(deep, tmp_path / f"wrap{depth}")
        deep = Path(shutil.make_archive(str(tmp_path / f"deep{depth}" / "w"), "zip",
                                        tmp_path / f"wrap{depth}"))
    problems = []
    read_files(deep.parent, problems)
    assert [p.rule for p in problems] == ["archive"] and "not opened" in problems[0].message


@pytest.mark.parametrize("layout", ["v1 v2 report", "folder and its zip", "two parts",
                                    "one inner zip"])
def test_one_students_zip_of_versions_parts_or_a_zip_stays_one_submission(tmp_path, layout):
    mine = tmp_path / "mine"
    if layout == "v1 v2 report":
        _write(mine / "v1" / "game_of_nim.py")
        _write(mine / "v2" / "game_of_nim.py")
        _write(mine / "report" / "r.pdf", "%PDF")
    elif layout == "folder and its zip":
        _write(mine / "A2" / "game_of_nim.py")
        shutil.make_archive(str(mine / "A2"), "zip", mine / "A2")
    else:
        for part in ("part1", "part2") if layout == "two parts" else ("A2",):
            _write(tmp_path / part / "game_of_nim.py")
            shutil.make_archive(str(mine / part), "zip", tmp_path / part)
    archive = Path(shutil.make_archive(str(tmp_path / "janedoe"), "zip", mine))
    intake = ingest(archive, tmp_path / "stage")
    assert [f.id for f in intake.found] == ["janedoe"]
    # Two folders of code could be a class too small to tell: the instructor is told how to
    # grade them as students; one folder of code is no such doubt.
    told = any("graded as ONE student's hand-in" in note for note in intake.notes)
    assert told == (layout == "v1 v2 report"), intake.notes


def test_a_students_own_zip_stays_one_submission(tmp_path):
    folder = tmp_path / "mine"
    _write(folder / "game_of_nim.py")
    _write(folder / "helpers" / "board.py")
    archive = Path(shutil.make_archive(str(tmp_path / "janedoe"), "zip", folder))
    intake = ingest(archive, tmp_path / "stage")
    assert [f.id for f in intake.found] == ["janedoe"]


# 3. The export writes into the gradebook's existing column


def _report(tmp_path: Path, results: list[dict], columns: list[str] | None = None) -> Path:
    report = tmp_path / "report"
    report.mkdir(exist_ok=True)
    (report / "results.json").write_text(json.dumps(results), encoding="utf-8")
    if columns is not None:
        (report / "intake.json").write_text(json.dumps({"roster_columns": columns}),
                                            encoding="utf-8")
    return report


def _result(student: str, total: float, lms_id: str, **lms: str) -> dict:
    return {"student": student, "assignment": NIM.id, "assignment_title": NIM.title,
            "status": "graded", "isolation": "bubblewrap", "total": total, "max_total": 100,
            "lms_id": lms_id, "display_name": student.split(" (")[0], "lms": lms,
            "criteria": [{"id": c.id, "title": c.title, "points": c.points,
                          "earned": round(total * c.points / 100, 2), "passed": 0, "total": 0}
                         for c in NIM.declaration.criteria]}


CANVAS_COLUMNS = ["Project 1: Subtraction Game (123455)", "Project 2: Game of Nim (123456)"]
CANVAS_ROWS = [_result("Olivia Brown (30187)", 90, "30187", layout="canvas",
                       roster="canvas", roster_id="30187"),
               _result("Amara Okafor (30190)", 70, "30190", layout="canvas",
                       roster="canvas", roster_id="30190")]


def _export(report: Path, fmt: str, *extra: str) -> tuple[int, list[list[str]]]:
    out = report.parent / f"out-{fmt}"
    code = main(["export", NIM.id, "--format", fmt, "--report", str(report), "--out", str(out),
                 *extra])
    grades = out / f"{fmt}-grades.csv"
    rows = list(csv.reader(io.StringIO(grades.read_text(encoding="utf-8")))) \
        if grades.exists() else []
    return code, rows


def test_canvas_writes_into_the_rosters_column_of_the_assignment(tmp_path):
    code, rows = _export(_report(tmp_path, CANVAS_ROWS, CANVAS_COLUMNS), "canvas")
    assert code == 0 and rows[0][-1] == "Project 2: Game of Nim (123456)"
    assert {row[1]: row[-1] for row in rows[2:]} == {"30187": "90", "30190": "70"}


@pytest.mark.parametrize("asked", ["123455", "Project 1: Subtraction Game",
                                   "Project 1: Subtraction Game (123455)"])
def test_column_asks_for_a_roster_column_by_id_or_name(tmp_path, asked):
    code, rows = _export(_report(tmp_path, CANVAS_ROWS, CANVAS_COLUMNS), "canvas",
                         "--column", asked)
    assert code == 0 and rows[0][-1] == "Project 1: Subtraction Game (123455)"


@pytest.mark.parametrize("columns", [[], ["Project 1 (1)", "Project 3 (3)"],
                                     ["Game of Nim (1)", "Game of Nim, late (2)"]])
def test_an_absent_or_ambiguous_column_is_refused_with_the_candidates(tmp_path, capsys,
                                                                       columns):
    code, rows = _export(_report(tmp_path, CANVAS_ROWS, columns), "canvas")
    assert code == 2 and rows == []
    said = " ".join(capsys.readouterr().err.split())
    assert "--column" in said and all(f"`{c}`" in said for c in columns)


@pytest.mark.parametrize("item", ["Project 2: Game of Nim Points Grade",
                                  # as D2L's own grades export writes the item
                                  "Project 2: Game of Nim Points Grade <Numeric MaxPoints:100>"])
def test_brightspace_writes_the_grade_item_of_the_roster(tmp_path, item):
    rows = [_result("Olivia Brown (30187)", 90, "30187", layout="brightspace",
                    roster="brightspace", roster_id="1001", sis_id="1001", username="obrown")]
    from graders.intake.roster import grade_columns

    assert grade_columns("brightspace", ["OrgDefinedId", item, "End-of-Line Indicator"]) == [item]
    code, written = _export(_report(tmp_path, rows, [item]), "brightspace")
    assert code == 0
    assert written == [["OrgDefinedId", "Username", item, "End-of-Line Indicator"],
                       ["#1001", "#obrown", "90", "#"]]


# 4. Exports that would lose marks stop with exit 1 and say why; --force writes them


def test_brightspace_without_a_roster_is_refused_not_a_header_only_csv(tmp_path, capsys):
    rows = [_result(f"S{n} ({n})", 80, str(n), layout="brightspace") for n in range(16)]
    report = _report(tmp_path, rows)
    code, written = _export(report, "brightspace", "--column", "Project 2")
    assert code == 1 and written == []
    assert "16 graded student(s) have no Brightspace" in " ".join(capsys.readouterr().err.split())
    assert _export(report, "brightspace", "--column", "Project 2", "--force")[0] == 0


def test_another_assignments_report_is_a_usage_error(tmp_path, capsys):
    other = dict(CANVAS_ROWS[0], assignment="stonehenge")
    code, written = _export(_report(tmp_path, [other], CANVAS_COLUMNS), "canvas")
    assert code == 2 and written == []
    assert "holds no result of 'game_of_nim' (it holds stonehenge)" in capsys.readouterr().err


def test_canvas_results_exported_as_moodle_are_refused_as_mixed_ids(tmp_path, capsys):
    code, written = _export(_report(tmp_path, CANVAS_ROWS, CANVAS_COLUMNS), "moodle")
    assert code == 1 and written == []
    assert "carry canvas ids" in " ".join(capsys.readouterr().err.split())


def test_an_export_of_only_zeros_is_refused_unless_forced(tmp_path, capsys):
    rows = [dict(r, total=0) for r in CANVAS_ROWS]
    report = _report(tmp_path, rows, CANVAS_COLUMNS)
    assert _export(report, "canvas")[0] == 1
    assert "would be 0 or empty" in " ".join(capsys.readouterr().err.split())
    code, written = _export(report, "canvas", "--force")
    assert code == 0 and [row[-1] for row in written[2:]] == ["0", "0"]


def test_a_grader_error_never_reaches_the_lms_as_a_mark(tmp_path, capsys):
    rows = [CANVAS_ROWS[0], dict(CANVAS_ROWS[1], status="grader-error", total=0)]
    code, written = _export(_report(tmp_path, rows, CANVAS_COLUMNS), "canvas")
    assert code == 1 and written == []
    assert "1 student(s) have no final mark" in " ".join(capsys.readouterr().err.split())


# 5. A Canvas submission of several files is one submission


def _canvas(root: Path, files: list[str]) -> list:
    for name in files:
        _write(root / "export" / name)
    return ingest(root / "export", root / "stage").found


def test_canvas_attachments_of_one_submission_are_not_resubmissions(tmp_path):
    files = [f"brownolivia_30187_{67890 + n}_{name}" for n, name in enumerate(
        ["stonehenge.py", "game_interface.py", "strategy.py", "ley_line.py", "board.py",
         "node.py", "memo.py"])]
    [found] = _canvas(tmp_path, files)
    assert sorted(p.name for p in found.source.iterdir())[0] == "board.py"
    assert not any("submission" in note for note in found.notes), found.notes


def test_a_file_handed_in_under_two_numbers_is_a_resubmission(tmp_path):
    [found] = _canvas(tmp_path, ["brownolivia_30187_67890_stonehenge.py",
                                 "brownolivia_30187_67899_stonehenge.py",
                                 "brownolivia_30187_67891_strategy.py"])
    [note] = found.notes
    assert "`stonehenge.py` (67899) was graded" in note and "(67890)" in note


def test_an_intake_note_on_no_file_names_no_empty_file(tmp_path):
    from graders.report import ReportWriter
    from graders.results import ViolationRecord

    [result] = _results(CANVAS_ROWS[0])
    result.violations = [ViolationRecord(rule="intake", title="Intake", file="",
                                         message="not on the roster (canvas gradebook)")]
    writer = ReportWriter(tmp_path, NIM)
    writer.write_student(result)
    page = writer.student_json(result.student).with_suffix(".html").read_text("utf-8")
    assert "not on the roster" in page and "<code></code>" not in page


# 6. The roster's names reach the TA; an override takes the name or the LMS id


def test_the_roster_name_is_the_name_reported(tmp_path):
    _write(tmp_path / "export" / "brownolivia_30187_67890_game_of_nim.py")
    roster = _write(tmp_path / "gradebook.csv",
                    "Student,ID,SIS User ID,SIS Login ID,Section,Project 2: Game of Nim (123456)\n"
                    "    Points Possible,,,,,100\n\"Brown, Olivia\",30187,S1,obrown,A,\n")
    _, settled = _settled(tmp_path, roster)
    assert [f.id for f in settled.found] == ["Olivia Brown (30187)"]


def _results(*rows: dict) -> list[SubmissionResult]:
    return [SubmissionResult.from_dict(row) for row in rows]


def test_override_finds_a_student_by_name_lms_id_or_id():
    results = _results(*CANVAS_ROWS)
    from graders.submissions import slugify

    for asked in ("Olivia Brown (30187)", "30187", "Olivia Brown", "brown, olivia",
                  slugify("Olivia Brown (30187)")):
        assert find_student(results, asked).student == "Olivia Brown (30187)"


def test_override_refuses_an_ambiguous_name():
    results = _results(_result("Jane Doe (1)", 50, "1"), _result("Jane Doe (2)", 60, "2"))
    for row, name in zip(results, ("Jane Doe", "Jane Doe"), strict=True):
        row.display_name = name
    with pytest.raises(click.UsageError, match="names 2 students"):
        find_student(results, "Jane Doe")


# 7. Zone-less export times are read in the course's zone


def test_the_course_timezone_reads_zone_less_times(tmp_path):
    course = NIM.declaration.model_copy(update={"course": NIM.declaration.course.model_copy(
        update={"timezone": "America/Toronto"})})
    pack = SimpleNamespace(declaration=course)
    zone = due_zone(pack, None)
    roster = _brightspace(tmp_path, {"30187": "Brown Olivia"}, [("1001", "Brown", "Olivia")])
    intake = ingest(tmp_path / "export", tmp_path / "stage")
    settled = settle(NIM, intake.found, roster=load_roster(roster), zone=zone)
    [found] = settled.found
    assert found.submitted_at is not None and found.submitted_at.utcoffset() is not None
    assert not any("no zone" in note for note in found.notes)


def test_an_unknown_course_timezone_is_a_declaration_error():
    from pydantic import ValidationError

    from graders.specs import CourseSpec

    with pytest.raises(ValidationError, match="unknown time zone"):
        CourseSpec(timezone="Mars/Olympus")


# 8. One student, one key: no two submissions share a row, a member or an id


def test_two_folders_with_one_name_do_not_take_one_roster_row(tmp_path):
    roster = _brightspace(tmp_path, {"30187": "Doe Jane", "30188": "Doe, Jane"},
                          [("1001", "Doe", "Jane")])
    _, settled = _settled(tmp_path, roster)
    assert settled.missing == []  # Jane is not "no submission": two claim her row
    for found in settled.found:
        assert "roster_id" not in found.lms
        assert any("2 submissions match the roster row of Jane Doe" in n for n in found.notes)


def test_the_roster_id_beats_a_namesake(tmp_path):
    roster = _brightspace(tmp_path, {"1001": "Doe Jane", "30188": "Doe, Jane"},
                          [("1001", "Doe", "Jane")])
    _, settled = _settled(tmp_path, roster)
    owner, namesake = sorted(settled.found, key=lambda f: f.lms_id)
    assert (owner.lms["roster_id"], "roster_id" in namesake.lms) == ("1001", False)
    assert any("whose id is another submission's" in note for note in namesake.notes)


def test_two_jane_does_cannot_be_exported_under_one_roster_id(tmp_path, capsys):
    rows = [_result("Jane Doe (30187)", 0, "30187", layout="brightspace"),
            _result("Jane Doe (30188)", 90, "30188", layout="brightspace")]
    code, _ = _export(_report(tmp_path, rows, ["Project 2: Game of Nim Points Grade"]),
                      "brightspace")
    assert code == 1 and "2 graded student(s)" in " ".join(capsys.readouterr().err.split())


def test_feedback_members_are_one_per_student(tmp_path):
    assert len({part("bob"), part("bob "), part(" bob"), part("carol_x"),
                 part("carol:x"), part("carol~3ax")}) == 6
    rows = [_result("bob", 90, "bob", layout="plain"), _result("bob ", 0, "bob ", layout="plain")]
    code, _ = _export(_report(tmp_path, rows), "markus")
    assert code == 0
    members = zipfile.ZipFile(tmp_path / "out-markus" / "markus-feedback.zip").namelist()
    assert sorted(members) == ["bob/feedback.html", "bob~20/feedback.html"]


def test_two_gradescope_submissions_with_one_sid_are_flagged_and_not_both_exported(tmp_path,
                                                                                 capsys):
    meta = []
    for number in (1, 2):
        _write(tmp_path / "export" / f"submission_{number}" / "game_of_nim.py")
        meta += [f"submission_{number}:", "  :submitters:", "  - :name: Jane Doe",
                 "    :sid: '1001'", "    :email: jane@example.edu",
                 "  :created_at: 2024-03-05 22:10:33 -0500"]
    _write(tmp_path / "export" / "submission_metadata.yml", "\n".join(meta) + "\n")
    intake = ingest(tmp_path / "export", tmp_path / "stage")
    settled = settle(NIM, intake.found)
    assert all(any("2 submissions" in n and "1001" in n for n in f.notes) for f in settled.found)
    rows = [_result("Jane Doe (1001)", 90, "1001", layout="gradescope"),
            _result("Jane Doe (1001) (2)", 40, "1001", layout="gradescope")]
    code, _ = _export(_report(tmp_path, rows), "gradescope")
    assert code == 1 and "is on 2 rows" in " ".join(capsys.readouterr().err.split())


def test_a_line_break_inside_a_roster_cell_makes_no_phantom_student(tmp_path):
    # a line separator the CSV does not treat as one, and a carriage return in a quoted cell
    roster = _write(tmp_path / "roster.csv",
                    "id,name,email\n1001,Jane\u2028Doe,jane@example.edu\n"
                    "1002,\"Amara\rOkafor\",amara@example.edu\n")
    people = load_roster(roster).people
    assert [(p.lms_id, p.display_name) for p in people] == [("1001", "Jane Doe"),
                                                            ("1002", "Amara Okafor")]


@pytest.mark.parametrize("mark", [";", "\t"])
def test_a_roster_excel_saved_again_is_read(tmp_path, mark):
    """An instructor opens Moodle's worksheet in Excel and saves it: Windows-1252 instead of
    UTF-8, and semicolons (or tabs) where the decimal mark is a comma. Each was refused
    (a decode error; "not a gradebook", the header one cell); now it is read, and said."""
    header = ["Identifier", "Full name", "Email address", "Status", "Grade",
              "Last modified (submission)"]
    row = ["Participant 1001", "José Núñez, Jr.", "jose@example.edu", "Submitted", "",
           "Thursday, 31 October 2024, 11:58 PM"]
    path = tmp_path / "worksheet.csv"
    path.write_bytes("\r\n".join(mark.join(f'"{c}"' if "," in c else c for c in line)
                                  for line in (header, row)).encode("cp1252"))
    roster = load_roster(path)
    assert roster.kind == "moodle" and roster.columns == ["Grade"]
    [person] = roster.people
    assert (person.lms_id, person.display_name) == ("1001", "José Núñez, Jr.")
    assert any("Windows-1252" in note for note in roster.notes)
    assert any({";": "semicolons", "\t": "tabs"}[mark] in note for note in roster.notes)


def test_a_roster_saved_by_an_old_macs_excel_or_as_unicode_text_is_read(tmp_path):
    """Lines ended by a lone carriage return ("CSV (Macintosh)") crashed the header's
    separator check with a traceback; Excel's "Unicode Text" is UTF-16 with tabs."""
    mac = tmp_path / "mac.csv"
    mac.write_bytes(b"id,name,email\r1001,Jane Doe,jane@example.edu\r1002,Amara Okafor,a@x\r")
    assert [(p.lms_id, p.display_name) for p in load_roster(mac).people] == [
        ("1001", "Jane Doe"), ("1002", "Amara Okafor")]
    wide = tmp_path / "unicode.txt"
    wide.write_bytes("id\tname\temail\r\n1001\tJosé Núñez\tj@x\r\n".encode("utf-16"))
    roster = load_roster(wide)
    assert [(p.lms_id, p.display_name) for p in roster.people] == [("1001", "José Núñez")]
    assert any("UTF-16" in note for note in roster.notes)


def test_a_utf8_comma_roster_has_no_notes(tmp_path):
    path = _write(tmp_path / "r.csv", "id,name,email\n1001,\"Doe; Jane\",jane@example.edu\n")
    roster = load_roster(path)
    assert roster.notes == [] and roster.people[0].display_name == "Doe; Jane"


def test_a_huge_roster_cell_is_a_clear_error_not_a_traceback(tmp_path):
    roster = _write(tmp_path / "gradebook.csv",
                    f"id,name,email\n1,\"{'x' * 200_000}\",a@example.edu\n")
    with pytest.raises(GraderError, match="line 2"):
        load_roster(roster)


# 9. Empty input is a usage error


def test_an_empty_zip_is_a_usage_error(tmp_path, capsys):
    archive = tmp_path / "empty.zip"
    zipfile.ZipFile(archive, "w").close()
    assert main([str(archive), "-a", NIM.id, "--out", str(tmp_path / "r")]) == 2
    assert "no submissions found" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_a_folder_without_python_is_a_usage_error(tmp_path, capsys):
    _write(tmp_path / "hand-in" / "notes.txt", "my notes")
    assert main([str(tmp_path / "hand-in"), "-a", NIM.id, "--out", str(tmp_path / "r")]) == 2
    assert "holds no Python file" in " ".join(capsys.readouterr().err.split())
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("key", ["doejane (u1)", "Jane Doe (u1)", "u1", "S-77"])
def test_an_extension_finds_its_student_by_any_id_the_roster_gives(tmp_path, key):
    """Canvas files the student as `doejane (u1)`; the roster renames them `Jane Doe (u1)`
    (the id the reports show) and knows their SIS id. An extension named by any of these is
    the student's (the renamed id and the SIS id were dropped silently: charged as late), and
    one for a roster row with no submission yet does not stop the class."""
    roster = _write(tmp_path / "gradebook.csv",
                    "Student,ID,SIS User ID,SIS Login ID,Section\n"
                    "\"Doe, Jane\",u1,S-77,jdoe,A\n\"Okafor, Amara\",u2,S-78,aokafor,A\n")
    extended = _write(tmp_path / "extensions.csv",
                      f"student,due\n{key},2024-03-08T23:59:00-05:00\nu2,2024-03-08T23:59:00-05:00\n")
    found = [Found(id="doejane (u1)", source=tmp_path, lms_id="u1")]
    settled = settle(NIM, found, roster=load_roster(roster), extensions=load_extensions(extended))
    assert found[0].id == "Jane Doe (u1)"
    assert found[0].due == datetime.fromisoformat("2024-03-08T23:59:00-05:00")
    assert found[0].lms["due"] == "2024-03-08T23:59:00-05:00"  # its feedback page follows it
    assert [p.lms_id for p in settled.missing] == ["u2"]


def test_a_zip_of_student_zips_and_an_export_zipped_again_are_read(tmp_path):
    folder = tmp_path / "class"
    for name in ("alice", "bob", "carol"):
        _write(tmp_path / name / "game_of_nim.py")
        if name == "alice":  # a student's zip over the 2 MB a file may be
            (tmp_path / name / "video.bin").write_bytes(os.urandom(3 * 1024 * 1024))
        shutil.make_archive(str(folder / name), "zip", tmp_path / name)
    zips = Path(shutil.make_archive(str(tmp_path / "class-of-zips"), "zip", folder))
    intake = ingest(zips, tmp_path / "stage")
    assert sorted(f.id for f in intake.found) == ["alice", "bob", "carol"]
    [alice] = [f for f in intake.found if f.id == "alice"]
    assert "game_of_nim.py" in read_files(alice.source, [])
    assert any("one archive or folder per student" in note for note in intake.notes)
    (tmp_path / "again").mkdir()
    (tmp_path / "other").mkdir()
    shutil.copy(_class_zip(tmp_path / "other"), tmp_path / "again")
    again = Path(shutil.make_archive(str(tmp_path / "rezipped"), "zip", tmp_path / "again"))
    intake = ingest(again, tmp_path / "stage-again")
    assert sorted(f.id for f in intake.found) == ["bobsmith", "carolng", "janedoe"]
    assert "holds one zip, `submissions.zip`" in intake.notes[0]


def test_each_member_of_a_gradescope_group_gets_the_groups_mark_under_their_own_id(tmp_path):
    meta = ["submission_7:", "  :submitters:", "  - :name: John Smith", "    :sid: '5003'",
            "    :email: js@example.edu", "  - :name: Wei Lee", "    :sid: '5004'",
            "    :email: wl@example.edu", "  :created_at: 2024-03-05 22:10:33 -0500",
            "submission_8:", "  :submitters:", "  - :name: Ann Ng", "    :sid: '5005'",
            "  - :name: Bo Li", "    :sid: '5006'", "  :created_at: 2024-03-05 22:10:33 -0500",
            "submission_9:", "  :submitters:", "  - :name: Bo Li", "    :sid: '5006'",
            "  :created_at: 2024-03-05 22:10:33 -0500"]
    for number in (7, 8, 9):
        _write(tmp_path / "export" / f"submission_{number}" / "game_of_nim.py")
    _write(tmp_path / "export" / "submission_metadata.yml", "\n".join(meta) + "\n")
    settled = settle(NIM, ingest(tmp_path / "export", tmp_path / "stage").found)
    # Bo Li handed in a submission of their own: only Wei Lee is a copy
    assert [(p.lms_id, p.display_name, p.email, team) for p, team in settled.team] == [
        ("5004", "Wei Lee", "wl@example.edu", "group 7")]
    [group] = [f for f in settled.found if f.lms_id == "5003"]
    assert (group.lms["team"], group.lms["group_layout"]) == ("group 7", "gradescope")
    graded = SubmissionResult.from_dict(_result(group.id, 85, "5003", layout="gradescope",
                                                 team="group 7", group_layout="gradescope"))
    row = team_copy(graded, settled.team[0][0], "Wei Lee (5004)", "", "group 7")
    assert (row.student, row.lms_id, row.total, row.lms["layout"]) == (
        "Wei Lee (5004)", "5004", 85, "gradescope")
    assert "group submission" in row.violations[-1].message


def test_two_namesake_folders_and_two_namesake_rows_leave_no_phantom_zero(tmp_path):
    roster = _brightspace(tmp_path, {"30187": "Doe Jane", "30188": "Doe, Jane"},
                          [("1001", "Doe", "Jane"), ("1002", "Doe", "Jane"), ("1003", "Ng", "Ana")])
    _, settled = _settled(tmp_path, roster)
    # Either Jane row may be either folder's: neither is "no submission" at 0; Ana is.
    assert [person.display_name for person in settled.missing] == ["Ana Ng"]
    for found in settled.found:
        assert any("2 rows of the brightspace gradebook have this name" in note
                   for note in found.notes), found.notes


def test_a_roster_id_in_another_case_is_the_students_row(tmp_path):
    roster = _write(tmp_path / "roster.csv", "id,name,email\nDoeJane1,Jane Doe,jd@x.edu\n"
                                              "leek,Kim Lee,kl@x.edu\n")
    _write(tmp_path / "class" / "doejane1" / "game_of_nim.py")
    _write(tmp_path / "class" / "LeeK" / "game_of_nim.py")
    intake = ingest(tmp_path / "class", tmp_path / "stage")
    settled = settle(NIM, intake.found, roster=load_roster(roster))
    assert settled.missing == []
    assert sorted(f.display_name for f in settled.found) == ["Jane Doe", "Kim Lee"]
