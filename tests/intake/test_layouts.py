"""Each LMS layout's realistic export grades to the right students, ids and times."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graders.cli import main
from graders.intake import ingest, layouts

from .conftest import results_of
from .exports import BUILDERS, build

LAYOUTS = sorted(BUILDERS)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_each_export_grades_to_the_right_students_ids_and_times(graded_export, layout):
    code, out, expected, _ = graded_export(layout)
    assert code == 0
    results = {k: r for k, r in results_of(out).items() if r["status"] != "missing"}
    assert set(results) == set(expected.rows)
    for student, (lms_id, total, when) in expected.rows.items():
        result = results[student]
        assert (result["lms_id"], result["total"]) == (lms_id, total), student
        assert result["submitted_at"] == (when or ""), student
        assert result["status"] == "graded"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_layout_is_detected_and_what_it_cannot_place_is_said(graded_export, layout):
    _, out, _, printed = graded_export(layout)
    intake = json.loads((out / "intake.json").read_text())
    assert intake["layout"] == layout
    text = " ".join(printed.split())
    assert f"({layout} layout)" in text
    for note in intake["notes"]:
        assert " ".join(note.split()) in text  # every note is on the console too
    if layout in ("moodle", "canvas", "plain"):  # each export holds one stray file
        assert len(intake["notes"]) == 1 and "belongs to no student" in intake["notes"][0]
    if layout == "gradescope":
        assert "wrapper folder" in intake["notes"][0]


def test_the_roster_adds_a_row_for_each_student_with_no_submission(graded_export):
    for layout in ("moodle", "canvas", "brightspace"):
        _, out, _, printed = graded_export(layout)
        missing = [r for r in results_of(out).values() if r["status"] == "missing"]
        assert [(r["lms_id"] if layout != "brightspace" else r["display_name"], r["total"])
                for r in missing] == [("12348" if layout != "brightspace" else "Ana Ng", 0)]
        assert "no-submission" in {v["rule"] for v in missing[0]["violations"]}
        assert "On the roster with no submission: Ana Ng" in " ".join(printed.split())
        rows = (out / "marks.csv").read_text(encoding="utf-8")
        assert "Ana Ng" in rows


def test_the_roster_gives_names_and_emails(graded_export):
    _, out, _, _ = graded_export("canvas")
    jane = results_of(out)["Jane Doe (12345)"]
    assert (jane["display_name"], jane["lms"]["sis_id"]) == ("Jane Doe", "S12345")


def test_layout_specific_troubles_are_named_in_the_students_report(graded_export):
    _, out, _, _ = graded_export("moodle")
    jane = results_of(out)["Jane Doe (12345)"]
    assert "the online text was graded as `myAltNimFunctions.py`" in _notes(jane)
    _, out, _, _ = graded_export("canvas")
    results = results_of(out)
    assert "the newest upload" in _notes(results["Jane Doe (12345)"])
    assert "LATE" in _notes(results["Zoë Ölund (12346)"])
    _, out, _, _ = graded_export("brightspace")
    assert "older submission" in _notes(results_of(out)["Jane Doe (12345)"])


def _notes(result: dict) -> str:
    return " ".join(v["message"] for v in result["violations"] if v["rule"] == "intake")


@pytest.mark.parametrize("layout", ["moodle", "canvas", "brightspace", "gradescope"])
def test_the_class_zip_holds_the_same_submissions_as_its_folder(tmp_path: Path, layout):
    archive, expected = build(layout, tmp_path / "zip", zipped=True)
    folder, _ = build(layout, tmp_path / "folder")
    from_zip = ingest(archive, tmp_path / "stage1")
    from_folder = ingest(folder, tmp_path / "stage2")
    assert from_zip.layout == layout
    assert sorted(f.id for f in from_zip.found) == sorted(f.id for f in from_folder.found)
    assert sorted(f.lms_id for f in from_zip.found) == sorted(v[0] for v in expected.rows.values())


def test_a_layout_can_be_forced(tmp_path: Path):
    folder, expected = build("markus", tmp_path)
    for group in ("group_0001", "group_0002", "group_0003"):
        (folder / group).rename(folder / group.replace("group_", "team"))
    assert ingest(folder, tmp_path / "s1").layout == "plain"
    forced = ingest(folder, tmp_path / "s2", "markus")
    assert forced.layout == "markus" and {f.lms["group"] for f in forced.found} == {
        "team0001", "team0002", "team0003"}


def test_an_empty_folder_is_no_submissions_found(tmp_path: Path, capsys):
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / ".DS_Store").write_text("")
    assert main([str(tmp_path / "class"), "-a", "altnim", "--out", str(tmp_path / "r")]) == 2
    assert "no submissions found" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_grade_layouts_lists_each_layout_with_an_example(capsys):
    assert main(["layouts"]) == 0
    printed = capsys.readouterr().out
    for layout in layouts().values():
        assert f"{layout.name}: {layout.title}" in printed and layout.example in printed
