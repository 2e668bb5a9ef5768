"""Exports as they reach the instructor's disk: a folder name whose bytes are not UTF-8 (a
Windows zip unpacked with ``unzip``), and the folder the export zip was downloaded into."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from graders.intake import ingest

from .exports import FILE, JANE, SAMPLES, SEAN, build

LATIN1_NAME = os.fsdecode(b"Ren\xe9e Blanc")  # the bytes unzip leaves for a cp1252 name
FOLDERS = {
    "moodle": f"{LATIN1_NAME}_12399_assignsubmission_file_",
    "brightspace": f"700099-12399 - {LATIN1_NAME}- Mar 5, 2024 1002 PM",
}


def _texts(intake) -> list[str]:
    return [*intake.notes, *(text for found in intake.found for text in (
        found.id, found.lms_id, found.display_name, found.email, *found.notes,
        *found.lms.values()))]


@pytest.mark.parametrize("layout", sorted(FOLDERS))
def test_a_folder_name_that_is_not_utf8_is_shown_and_no_one_is_lost(tmp_path: Path, layout):
    root, expected = build(layout, tmp_path)
    (root / FOLDERS[layout]).mkdir()
    (root / FOLDERS[layout] / FILE).write_text(JANE.code(), encoding="utf-8")
    intake = ingest(root, tmp_path / "stage")
    for text in _texts(intake):
        text.encode("utf-8")  # every report, CSV and the gradebook write these
    names = {found.display_name for found in intake.found}
    assert r"Ren\xe9e Blanc" in names
    assert len(intake.found) == len(expected.rows) + 1


@pytest.mark.parametrize("beside", [[], ["moodle-worksheet.csv"]])
def test_the_folder_the_export_zip_was_downloaded_into_is_that_export(tmp_path: Path, beside):
    archive, expected = build("moodle", tmp_path / "built", zipped=True)
    download = tmp_path / "Downloads"
    download.mkdir()
    shutil.copyfile(archive, download / "CS3200-A2-Download all submissions-12345.zip")
    for name in beside:
        shutil.copyfile(tmp_path / "built" / name, download / name)
    intake = ingest(download, tmp_path / "stage")
    assert intake.layout == "moodle"
    assert sorted(f.lms_id for f in intake.found) == sorted(v[0] for v in expected.rows.values())
    said = " ".join(intake.notes)
    assert "holds one zip" in said and all(f"`{name}` beside it was not read" in said
                                           for name in beside)


def test_a_student_folder_holding_only_their_zip_is_still_that_student(tmp_path: Path):
    folder = tmp_path / "alice"
    folder.mkdir()
    shutil.make_archive(str(folder / "a2"), "zip", SAMPLES / SEAN.sample)
    intake = ingest(folder, tmp_path / "stage")
    assert [found.source.name for found in intake.found] == ["a2.zip"]
