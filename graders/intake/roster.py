"""``grade --roster FILE``: the LMS's own gradebook CSV, mapping LMS ids to people.

Recognised by its header: Moodle's grading worksheet (``Identifier``, ``Full name``, ``Email
address``, ``Last modified (submission)``: also the submission time, read in ``--timezone``),
Canvas's gradebook (``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``; its
``Points Possible`` row is skipped), Brightspace's grades export (``OrgDefinedId``,
``Username``, ``Last Name``, ``First Name``, ``Email``), Gradescope's roster (``First Name``,
``Last Name``, ``SID``, ``Email``), MarkUs's student list (``user_name``, ...), or a plain
``id,name,email`` file. A submission is matched to its row by LMS id, user name or SIS id,
else by the person's name (Brightspace downloads carry no id the grades export has). Names are
compared as the set of their words, accents and case folded, so every order real exports use
matches: ``First Last``, ``Last, First``, ``Last First``, compound surnames (``García López
María José``, ``Van der Berg Pieter``).
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from graders.errors import GraderError
from graders.intake.base import Found, plain_name

MOODLE_TIME = ("%A, %d %B %Y, %I:%M %p", "%A, %d %B %Y, %H:%M")


@dataclass
class Person:
    """One roster row."""

    lms_id: str
    display_name: str = ""
    email: str = ""
    sis_id: str = ""
    username: str = ""
    submitted_at: datetime | None = None  # Moodle's worksheet only (naive)
    line: int = 0


@dataclass
class Roster:
    kind: str
    people: list[Person] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)  # its grade columns: where marks go back
    notes: list[str] = field(default_factory=list)  # how the file was read, for the console

    def match(self, found: Found) -> Person | None:
        """The row of ``found``: by id, user name or SIS id, else by a name only one has."""
        person = self.by_id(found)
        if person is not None:
            return person
        named = self.by_name(found)
        return named[0] if len(named) == 1 else None

    def by_id(self, found: Found) -> Person | None:
        """The row whose LMS id, user name or SIS id is one of ``found``'s ids; else the one
        row whose id is one of them but for case (a user name typed ``DoeJane1`` in the
        gradebook, the export's folder ``doejane1``)."""
        keys = {found.lms_id, found.lms.get("group", "")} - {""}
        exact = next((p for p in self.people if keys & {p.lms_id, p.username, p.sis_id}), None)
        if exact is not None:
            return exact
        folded = {key.casefold() for key in keys}
        near = [p for p in self.people
                if folded & {key.casefold() for key in (p.lms_id, p.username, p.sis_id) if key}]
        return near[0] if len(near) == 1 else None

    def by_name(self, found: Found) -> list[Person]:
        """The rows whose name has the same words as ``found``'s, in any order."""
        wanted = name_key(found.display_name)
        return [p for p in self.people if wanted and name_key(p.display_name) == wanted]


def name_key(name: str) -> tuple[str, ...]:
    """The words of a name, accents and case folded, sorted: ``Doe, Jane``, ``Doe Jane`` and
    ``Jane Doe`` give one key."""
    return tuple(sorted(re.findall(r"\w+", plain_name(name))))


def load_roster(path: Path) -> Roster:
    """Read a roster; GraderError (at start-up) when the file or its header is not one."""
    notes: list[str] = []
    text = _roster_text(path, notes)
    delimiter = _delimiter(text)
    if delimiter != ",":
        notes.append(f"--roster {path}: cells separated by {DELIMITERS[delimiter]}")
    lines = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:  # a line break inside a quoted cell stays in its cell, as a spreadsheet reads it
        rows = list(lines)
    except csv.Error as exc:
        raise GraderError(f"--roster {path}, line {lines.line_num}: not a CSV row this harness "
                          f"reads ({exc})") from None
    if not rows:
        raise GraderError(f"--roster {path}: the file is empty")
    header = [cell.strip() for cell in rows[0]]
    for kind, reader in READERS:
        people = reader(header, rows[1:])
        if people is not None:
            if len({p.lms_id for p in people}) != len(people):
                raise GraderError(f"--roster {path}: an id appears on two rows")
            return Roster(kind, people, grade_columns(kind, header), notes)
    raise GraderError(f"--roster {path}, line 1: not a gradebook this harness reads (header "
                      f"`{','.join(header)[:200]}`); see `grade layouts`")


DELIMITERS = {",": "commas",
              ";": "semicolons, as Excel saves CSV where the decimal mark is a comma",
              "\t": "tabs, as Excel saves \"Text\" and \"Unicode Text\""}


def _roster_text(path: Path, notes: list[str]) -> str:
    """The roster's text: UTF-8 as the LMS writes it, else what Excel saved it as (its
    "Unicode Text", UTF-16; its "CSV" on Windows, Windows-1252), said in ``notes``."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GraderError(f"--roster {path}: cannot be read ({exc})") from None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        notes.append(f"--roster {path}: UTF-16 (Excel's \"Unicode Text\"), read as such")
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        notes.append(f"--roster {path}: not UTF-8, read as Windows-1252 (as Excel saves CSV "
                     "on Windows)")
        return data.decode("cp1252", errors="replace")


def _delimiter(text: str) -> str:
    """The separator of the header line: the one that splits it into the most cells (an
    LMS writes commas; Excel re-saves with semicolons in much of Europe, or tabs). Lines
    end as any program ends them (an old Mac's Excel: a lone carriage return)."""
    header = next(iter(text.splitlines()), "")
    return max(DELIMITERS, key=lambda mark: (len(next(csv.reader([header], delimiter=mark),
                                                          [])), mark == ","))


Rows = list[list[str]]
CANVAS_COLUMN = re.compile(r".+\(\d+\)")  # `<Assignment name> (<assignment id>)`
# D2L writes the item's scheme after its name in its own exports: `Lab 2 Points Grade
# <Numeric MaxPoints:100 Weight:10>`; its import takes the header back as written.
BRIGHTSPACE_COLUMN = re.compile(r".+ Points Grade(?: <[^<>]*>)?", re.IGNORECASE)


def grade_columns(kind: str, header: list[str]) -> list[str]:
    """The columns of a gradebook header that hold an assignment's marks (an export writes
    into one of them, never a new one): Canvas's ``<name> (<id>)``, Brightspace's ``<item>
    Points Grade``, Moodle's ``Grade``."""
    pattern = {"canvas": CANVAS_COLUMN, "brightspace": BRIGHTSPACE_COLUMN,
               "moodle": re.compile("Grade")}.get(kind)
    return [cell for cell in header if pattern and pattern.fullmatch(cell)]



def _columns(header: list[str], *names: str) -> dict[str, int] | None:
    lowered = [cell.lower() for cell in header]
    found = {name: lowered.index(name.lower()) for name in names if name.lower() in lowered}
    return found if len(found) == len(names) else None


def _cell(row: list[str], index: int | None) -> str:
    """A cell, its white space (line breaks inside a quoted cell too) collapsed."""
    return " ".join(row[index].split()) if index is not None and index < len(row) else ""


def _moodle(header: list[str], rows: Rows) -> list[Person] | None:
    cols = _columns(header, "Identifier", "Full name")
    if cols is None:
        return None
    email = _optional(header, "Email address")
    when = _optional(header, "Last modified (submission)")
    people = []
    for number, row in enumerate(rows, start=2):
        ident = re.sub(r"^\D*", "", _cell(row, cols["Identifier"]))
        if ident:
            people.append(Person(ident, _cell(row, cols["Full name"]), _cell(row, email),
                                 submitted_at=moodle_time(_cell(row, when)), line=number))
    return people


def moodle_time(text: str) -> datetime | None:
    """``Thursday, 31 October 2024, 11:58 PM`` (naive; ``-`` or blank: none)."""
    for form in MOODLE_TIME:
        try:
            return datetime.strptime(text.strip(), form)
        except ValueError:
            continue
    return None


def _optional(header: list[str], name: str) -> int | None:
    cols = _columns(header, name)
    return cols[name] if cols else None


def _canvas(header: list[str], rows: Rows) -> list[Person] | None:
    cols = _columns(header, "Student", "ID")
    if cols is None or _optional(header, "SIS User ID") is None:
        return None
    sis, login = _optional(header, "SIS User ID"), _optional(header, "SIS Login ID")
    people = []
    for number, row in enumerate(rows, start=2):
        name, ident = _cell(row, cols["Student"]), _cell(row, cols["ID"])
        if not ident or "points possible" in name.lower() or name.lower() == "student, test":
            continue
        last, _, first = name.partition(",")
        display = f"{first.strip()} {last.strip()}".strip() if first else name
        people.append(Person(ident, display, sis_id=_cell(row, sis),
                             username=_cell(row, login), line=number))
    return people


def _brightspace(header: list[str], rows: Rows) -> list[Person] | None:
    cols = _columns(header, "OrgDefinedId", "Username")
    if cols is None:
        return None
    first, last = _optional(header, "First Name"), _optional(header, "Last Name")
    email = _optional(header, "Email")
    people = []
    for number, row in enumerate(rows, start=2):
        org = _cell(row, cols["OrgDefinedId"]).lstrip("#")
        user = _cell(row, cols["Username"]).lstrip("#")
        if org or user:
            display = f"{_cell(row, first)} {_cell(row, last)}".strip()
            people.append(Person(org or user, display, _cell(row, email), sis_id=org,
                                 username=user, line=number))
    return people


def _gradescope(header: list[str], rows: Rows) -> list[Person] | None:
    cols = _columns(header, "SID", "Email")
    if cols is None:
        return None
    first, last = _optional(header, "First Name"), _optional(header, "Last Name")
    name = _optional(header, "Name")
    people = []
    for number, row in enumerate(rows, start=2):
        display = _cell(row, name) or f"{_cell(row, first)} {_cell(row, last)}".strip()
        sid = _cell(row, cols["SID"])
        if sid:
            people.append(Person(sid, display, _cell(row, cols["Email"]), line=number))
    return people


def _markus(header: list[str], rows: Rows) -> list[Person] | None:
    cols = _columns(header, "user_name")
    if cols is None:
        return None
    first, last = _optional(header, "first_name"), _optional(header, "last_name")
    email, number_col = _optional(header, "email"), _optional(header, "id_number")
    people = []
    for number, row in enumerate(rows, start=2):
        user = _cell(row, cols["user_name"])
        if user:
            people.append(Person(user, f"{_cell(row, first)} {_cell(row, last)}".strip(),
                                 _cell(row, email), sis_id=_cell(row, number_col),
                                 username=user, line=number))
    return people


def _generic(header: list[str], rows: Rows) -> list[Person] | None:
    cols = _columns(header, "id", "name")
    if cols is None:
        return None
    email = _optional(header, "email")
    return [Person(_cell(row, cols["id"]), _cell(row, cols["name"]), _cell(row, email),
                   line=number)
            for number, row in enumerate(rows, start=2) if _cell(row, cols["id"])]


READERS = (("moodle", _moodle), ("canvas", _canvas), ("brightspace", _brightspace),
           ("gradescope", _gradescope), ("markus", _markus), ("plain", _generic))
