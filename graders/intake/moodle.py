"""Moodle's "Download all submissions": a folder per student and submission plugin.

``<Full name>_<participant id>_assignsubmission_file_/`` holds the uploaded files;
``..._assignsubmission_onlinetext_/onlinetext.html`` the online text. Older versions flatten
the folders into files named ``<Full name>_<participant id>_assignsubmission_file_<name>``;
both forms are accepted, also mixed. The participant id is the LMS id (the grading
worksheet's ``Identifier`` is ``Participant <id>``). The zip carries no times: they come from
the grading worksheet (``--roster``) or ``--times``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from graders.intake import register
from graders.intake.base import (
    Found,
    Intake,
    Layout,
    Stage,
    contained,
    entries,
    html_text,
    mostly,
    named,
    stray,
)

FOLDER = re.compile(r"(?P<name>.+)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)_")
FLAT = re.compile(r"(?P<name>.+)_(?P<id>\d+)_assignsubmission_(?P<plugin>file|onlinetext)_"
                  r"(?P<file>.+)")


@dataclass
class _Student:
    name: str
    folders: list[Path] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)
    text: str | None = None
    notes: list[str] = field(default_factory=list)


def _match(path: Path) -> re.Match[str] | None:
    return (FOLDER if path.is_dir() else FLAT).fullmatch(path.name)


@register
class Moodle(Layout):
    name = "moodle"
    title = "Moodle (download all submissions)"
    example = "Doe Jane_12345_assignsubmission_file_/program.py"
    priority = 10

    def detect(self, root: Path) -> bool:
        return mostly(entries(root), lambda path: _match(path) is not None)

    def read(self, root: Path, stage: Path) -> Intake:
        intake = Intake(self.name)
        students: dict[str, _Student] = {}
        for path in entries(root):
            match = _match(path)
            if match is None:
                intake.notes.append(stray(path, "Moodle"))
                continue
            student = students.setdefault(match["id"], _Student(match["name"]))
            if match["name"] != student.name:
                student.notes.append(f"Moodle names participant {match['id']} both "
                                     f"`{student.name}` and `{match['name']}`")
            _add(student, path, match)
        staging = Stage(stage)
        for lms_id, student in students.items():
            fallback = Found(id=named(student.name, lms_id), source=Path(), lms_id=lms_id)
            intake.found.append(contained(partial(_found, lms_id, student, staging), fallback,
                                          staging))
        return intake


def _add(student: _Student, path: Path, match: re.Match[str]) -> None:
    plugin = match["plugin"]
    if plugin == "onlinetext":
        page = path / "onlinetext.html" if path.is_dir() else path
        if page.is_file():
            student.text = html_text(page.read_text(encoding="utf-8", errors="replace"))
    elif plugin == "file" and path.is_dir():
        student.folders.append(path)
    elif plugin == "file":
        student.files[match["file"]] = path
    else:
        student.notes.append(f"`{path.name}`: Moodle's `{plugin}` plugin is not graded")


def _found(lms_id: str, student: _Student, staging: Stage) -> Found:
    found = Found(id=named(student.name, lms_id), source=Path(), lms_id=lms_id,
                  display_name=student.name, notes=student.notes,
                  lms={"ref": f"{student.name}_{lms_id}"})
    if len(student.folders) == 1 and not student.files:
        found.source = student.folders[0]
    else:
        files = dict(student.files)
        for folder in student.folders:
            for child in sorted(folder.iterdir()):
                if child.name in files:
                    found.notes.append(f"`{child.name}` was uploaded twice; the copy in "
                                       f"`{folder.name}` was not graded")
                    continue
                files[child.name] = child
        found.source = staging.folder(files, found.notes)
    if student.text is not None and (student.folders or student.files):
        found.notes.append("the online text was not graded: files were handed in too")
    elif student.text is not None:
        found.online_text = student.text
    return found
