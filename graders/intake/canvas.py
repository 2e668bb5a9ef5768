"""Canvas's "Download Submissions": one flat zip of files named after their student.

Each file is ``<sortable name>_<user id>_<submission id>_<original name>``, with ``_LATE`` after
the name for late work (``doejane_LATE_12345_67890_program.py``). A re-upload of one file name
is numbered before the extension (``program-1.py``, ``program-2.py``; varies): the highest
number is graded under the plain name and the others are named in the report. A submission of
several files gives each attached file its own number (varies), so numbers alone never make a
re-submission: only a file name handed in under two numbers does. The user id is the LMS id (the
gradebook's ``ID`` column). Canvas gives no times, only the late flag: the report says so, and
``--times`` gives the time the late rule needs.
"""

from __future__ import annotations

import re
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
    mostly,
    named,
    stray,
)

FILE = re.compile(r"(?P<name>[^\W\d_]+)(?P<late>_LATE)?_(?P<user>\d+)_(?P<sub>\d+)_(?P<file>.+)",
                  re.IGNORECASE)
NUMBERED = re.compile(r"(?P<stem>.+)-(?P<n>\d+)(?P<ext>\.[^.]+)?")


@register
class Canvas(Layout):
    name = "canvas"
    title = "Canvas (download submissions)"
    example = "doejane_12345_67890_program.py (late: doejane_LATE_12345_67890_program.py)"
    priority = 20

    def detect(self, root: Path) -> bool:
        return mostly(entries(root),
                      lambda p: p.is_file() and FILE.fullmatch(p.name) is not None)

    def read(self, root: Path, stage: Path) -> Intake:
        intake = Intake(self.name)
        by_user: dict[str, list[tuple[re.Match[str], Path]]] = {}
        for path in entries(root):
            match = FILE.fullmatch(path.name) if path.is_file() else None
            if match is None:
                intake.notes.append(stray(path, "Canvas"))
                continue
            by_user.setdefault(match["user"], []).append((match, path))
        staging = Stage(stage)
        for user, files in by_user.items():
            fallback = Found(id=named(files[0][0]["name"].lower(), user), source=Path(),
                             lms_id=user)
            intake.found.append(contained(partial(_found, user, files, staging), fallback,
                                          staging))
        return intake


def _found(user: str, files: list[tuple[re.Match[str], Path]], staging: Stage) -> Found:
    first = files[0][0]
    sortable = first["name"].lower()
    found = Found(id=named(sortable, user), source=Path(), lms_id=user, display_name=sortable)
    submissions = sorted({match["sub"] for match, _ in files}, key=int)
    versions: dict[str, list[tuple[tuple[int, int], Path, str]]] = {}
    for match, path in files:
        name, number = _original(match["file"])
        versions.setdefault(name, []).append(((int(match["sub"]), number), path, match["file"]))
    chosen: dict[str, Path] = {}
    for name, uploads in versions.items():
        uploads.sort()
        _, path, newest = uploads[-1]
        chosen[name] = path
        if len(uploads) > 1:
            older = ", ".join(f"`{upload[2]}` ({upload[0][0]})" for upload in uploads[:-1])
            found.notes.append(f"`{newest}` ({uploads[-1][0][0]}) was graded as `{name}`: "
                               f"Canvas holds it more than once and this is the newest upload "
                               f"(not graded: {older})")
        elif newest != name:
            found.notes.append(f"`{newest}` was graded as `{name}` (Canvas numbers a "
                               "re-uploaded file)")
    found.source = staging.folder(chosen, found.notes)
    late = any(match["late"] for match, _ in files)
    found.lms = {"submission": submissions[-1], "ref": f"{sortable}_{user}_{submissions[-1]}",
                 "late": "yes" if late else "no"}
    if late:
        found.notes.append("Canvas marks this submission LATE; its export gives no time, so "
                           "the late rule applies only with a time from `grade --times`")
    return found


def _original(name: str) -> tuple[str, int]:
    """The file name before Canvas numbered it, and the number (0: not numbered)."""
    match = NUMBERED.fullmatch(name)
    if match is None:
        return name, 0
    return f"{match['stem']}{match['ext'] or ''}", int(match["n"])
