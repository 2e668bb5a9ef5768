"""Brightspace (D2L) assignment download: a folder per submission, dated, and ``index.html``.

Folders are ``<number>-<number> - <Last> <First>- <Mon d, yyyy h:mm AM>`` (for example
``123456-789012 - Doe Jane- Mar 5, 2024 1102 PM``; the time is written with or without its
colon). The folder name is the only place the time appears, and it has no timezone: the batch
reads it in ``--timezone`` (default: the due date's). Assumed: the second number identifies the
student (their re-submissions share it), so the newest folder of a student is graded and the
older ones are named in the report. ``index.html`` is the export's own listing, not a student.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from graders.intake import register
from graders.intake.base import Found, Intake, Layout, entries, mostly, named, stray

# The date starts like one ("Mar 5, 2024", "2024-03-05", "3/5/2024"; its time in any form,
# read by parse_when): a student whose date is written otherwise keeps their folder, with a
# note that its date could not be read, and a hyphen in a name never ends the name.
FOLDER = re.compile(r"(?P<first>\d+)-(?P<user>\d+) - (?P<name>.+?)\s*-\s*"
                    r"(?P<when>(?:[A-Z][a-z]{2} \d{1,2},|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4})"
                    r".*)")
FORMATS = ("%b %d, %Y %I:%M %p", "%b %d, %Y, %I:%M %p", "%b %d, %Y %H:%M", "%b %d, %Y, %H:%M",
           "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %I:%M %p")
# The time without its colon: the minutes are always its last two digits ("115 PM" is 1:15;
# strptime would read an hour of 11 and a minute of 5)
BARE_TIME = re.compile(r"\b(\d{1,2})(\d{2})(?= [AP]M\b)")
LISTING = "index.html"


def parse_when(text: str) -> datetime | None:
    """A Brightspace folder date (naive: Brightspace writes no zone)."""
    text = " ".join(text.replace("AM", " AM").replace("PM", " PM").split())
    text = BARE_TIME.sub(r"\1:\2", text)
    for form in FORMATS:
        try:
            return datetime.strptime(text, form)
        except ValueError:
            continue
    return None


@register
class Brightspace(Layout):
    name = "brightspace"
    title = "Brightspace/D2L (assignment download)"
    example = "123456-789012 - Doe Jane- Mar 5, 2024 1102 PM/program.py"
    priority = 30

    def detect(self, root: Path) -> bool:
        inside = [p for p in entries(root) if p.name != LISTING]
        return mostly(inside, lambda p: p.is_dir() and FOLDER.fullmatch(p.name) is not None)

    def read(self, root: Path, stage: Path) -> Intake:
        intake = Intake(self.name)
        by_user: dict[str, list[tuple[datetime | None, Path, re.Match[str]]]] = {}
        for path in entries(root):
            if path.name == LISTING:
                continue
            match = FOLDER.fullmatch(path.name) if path.is_dir() else None
            if match is None:
                intake.notes.append(stray(path, "Brightspace"))
                continue
            by_user.setdefault(match["user"], []).append((parse_when(match["when"]), path, match))
        for user, folders in by_user.items():
            folders.sort(key=lambda item: (item[0] or datetime.min, item[1].name))
            when, path, match = folders[-1]
            found = Found(id=named(match["name"], user), source=path, lms_id=user,
                          display_name=match["name"], submitted_at=when,
                          lms={"ref": path.name, "folder": match["first"]})
            for _, older, _ in folders[:-1]:
                found.notes.append(f"an older submission (`{older.name}`) was not graded; "
                                   "the newest was")
            if when is None:
                found.notes.append(f"the date in `{path.name}` could not be read")
            intake.found.append(found)
        return intake
