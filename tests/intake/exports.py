"""Realistic LMS exports of three altNim students, one per layout (run as a script to look at
them: ``python tests/intake/exports.py OUT``).

The students: Jane Doe hands in the correct solution (100), Zoë Ölund one with an extra import
(85), Seán O'Brien one that does not parse (0). Each layout adds its own trouble: Moodle online
text, flattened files, a stray file and the class zip; Canvas ``_LATE_`` and numbered
re-uploads; Brightspace dated folders named in every order (``Doe Jane``, ``Ölund, Zoë``,
``Seán O'Brien``), an older re-submission and ``index.html``; MarkUs group
folders; Gradescope a wrapper folder and its metadata; the plain layout a zip and a folder.
"""

from __future__ import annotations

import html
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "fixtures" / "altnim" / "submissions"
FILE = "myAltNimFunctions.py"


@dataclass(frozen=True)
class Student:
    name: str  # as the LMS shows it
    lms_id: str
    sample: str
    total: float
    email: str

    def code(self) -> str:
        return (SAMPLES / self.sample / FILE).read_text(encoding="utf-8")


JANE = Student("Jane Doe", "12345", "correct", 100, "jane.doe@example.edu")
ZOE = Student("Zoë Ölund", "12346", "extra_import", 85, "zoe.olund@example.edu")
SEAN = Student("Seán O'Brien", "12347", "syntax_error", 0, "sean.obrien@example.edu")
STUDENTS = (JANE, ZOE, SEAN)
ABSENT = Student("Ana Ng", "12348", "", 0, "ana.ng@example.edu")  # on the roster only


@dataclass
class Expected:
    """What grading the export must give: id -> (LMS id, total, submission time or None)."""

    rows: dict[str, tuple[str, float, str | None]]
    roster: Path | None = None


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def last_first(student: Student) -> str:
    first, last = student.name.split(" ", 1)
    return f"{last} {first}"


def moodle(root: Path) -> Expected:
    # online text only: the correct code pasted into the editor
    page = "".join(f"<p>{html.escape(line).replace(' ', '&nbsp;')}</p>"
                   for line in JANE.code().splitlines())
    _write(root / f"{JANE.name}_{JANE.lms_id}_assignsubmission_onlinetext_" / "onlinetext.html",
           "<!DOCTYPE html><html><head><title>Online text</title></head>"
           f"<body>{page}</body></html>")
    # older Moodle: flattened files
    _write(root / f"{ZOE.name}_{ZOE.lms_id}_assignsubmission_file_{FILE}", ZOE.code())
    sean = root / f"{SEAN.name}_{SEAN.lms_id}_assignsubmission_file_"
    _write(sean / FILE, SEAN.code())
    _write(sean / "notes.txt", "my notes")
    _write(root / "README from the TA.txt", "stray")
    roster = root.parent / "moodle-worksheet.csv"
    lines = ["Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
             "Last modified (submission),Last modified (grade),Feedback comments"]
    when = {JANE: '"Tuesday, 5 March 2024, 10:58 PM"', ZOE: '"Wednesday, 6 March 2024, 1:30 AM"',
            SEAN: '"Tuesday, 5 March 2024, 9:00 PM"', ABSENT: "-"}
    for s in (*STUDENTS, ABSENT):
        lines.append(f"Participant {s.lms_id},{s.name},{s.email},Submitted,,100.00,Yes,"
                     f"{when[s]},-,")
    _write(roster, "\n".join(lines) + "\n")
    return Expected({
        f"{JANE.name} ({JANE.lms_id})": (JANE.lms_id, 100, "2024-03-05T22:58:00-05:00"),
        f"{ZOE.name} ({ZOE.lms_id})": (ZOE.lms_id, 85, "2024-03-06T01:30:00-05:00"),
        f"{SEAN.name} ({SEAN.lms_id})": (SEAN.lms_id, 0, "2024-03-05T21:00:00-05:00"),
    }, roster)


def sortable(student: Student) -> str:
    import unicodedata

    last_then_first = last_first(student)
    plain = unicodedata.normalize("NFKD", last_then_first)
    return "".join(c for c in plain if c.isalpha() and c.isascii()).lower()


def canvas(root: Path) -> Expected:
    prefix = {s: f"{sortable(s)}_{s.lms_id}_{int(s.lms_id) + 50000}" for s in STUDENTS}
    _write(root / f"{prefix[JANE]}_{FILE}", SAMPLES.joinpath("syntax_error", FILE).read_text())
    _write(root / f"{prefix[JANE]}_myAltNimFunctions-1.py", JANE.code())  # the re-upload
    late = prefix[ZOE].replace("_", "_LATE_", 1)
    _write(root / f"{late}_{FILE}", ZOE.code())
    _write(root / f"{prefix[SEAN]}_{FILE}", SEAN.code())
    _write(root / "grading-notes.docx", "stray")
    roster = root.parent / "canvas-gradebook.csv"
    lines = ["Student,ID,SIS User ID,SIS Login ID,Section,AltNim (4401)",
             "    Points Possible,,,,,100"]
    for s in (*STUDENTS, ABSENT):
        first, last = s.name.split(" ", 1)
        lines.append(f'"{last}, {first}",{s.lms_id},S{s.lms_id},{s.email.split("@")[0]},'
                     "CS 101,")
    _write(roster, "\n".join(lines) + "\n")
    return Expected({  # reported under the roster's name, not Canvas's sortable one
        f"{JANE.name} ({JANE.lms_id})": (JANE.lms_id, 100, None),
        f"{ZOE.name} ({ZOE.lms_id})": (ZOE.lms_id, 85, None),
        f"{SEAN.name} ({SEAN.lms_id})": (SEAN.lms_id, 0, None),
    }, roster)


def brightspace(root: Path) -> Expected:
    # Brightspace writes the name part in every order: "Last First", "Last, First", "First Last"
    forms = {JANE: last_first(JANE), ZOE: "Ölund, Zoë", SEAN: SEAN.name}

    def folder(s: Student, when: str, number: int) -> Path:
        return root / f"{number}-{s.lms_id} - {forms[s]}- {when}"

    _write(folder(JANE, "Mar 4, 2024 902 AM", 700001) / FILE,
           SAMPLES.joinpath("syntax_error", FILE).read_text())  # older, not graded
    _write(folder(JANE, "Mar 5, 2024 1102 PM", 700002) / FILE, JANE.code())
    _write(folder(ZOE, "Mar 6, 2024 12:15 AM", 700003) / "altnim" / FILE, ZOE.code())
    _write(folder(SEAN, "Mar 5, 2024 859 PM", 700004) / FILE, SEAN.code())
    _write(root / "index.html", "<html><body><table><tr><td>Doe Jane</td></tr></table></body>"
           "</html>")
    roster = root.parent / "brightspace-grades.csv"
    lines = ["OrgDefinedId,Username,Last Name,First Name,Email,AltNim Points Grade,"
             "End-of-Line Indicator"]
    for s in (*STUDENTS, ABSENT):
        first, last = s.name.split(" ", 1)
        lines.append(f"#9{s.lms_id},#{s.email.split('@')[0]},{last},{first},{s.email},,#")
    _write(roster, "\n".join(lines) + "\n")
    return Expected({  # reported under the roster's name
        f"{JANE.name} ({JANE.lms_id})": (JANE.lms_id, 100, "2024-03-05T23:02:00-05:00"),
        f"{ZOE.name} ({ZOE.lms_id})": (ZOE.lms_id, 85, "2024-03-06T00:15:00-05:00"),
        f"{SEAN.name} ({SEAN.lms_id})": (SEAN.lms_id, 0, "2024-03-05T20:59:00-05:00"),
    }, roster)


def markus(root: Path) -> Expected:
    for number, s in enumerate(STUDENTS, start=1):
        _write(root / f"group_{number:04d}" / FILE, s.code())
    _write(root / f"group_{2:04d}" / "scratch" / "old.txt", "stray")
    return Expected({f"group_{n:04d}": (f"group_{n:04d}", s.total, None)
                     for n, s in enumerate(STUDENTS, start=1)})


def gradescope(root: Path) -> Expected:
    wrapper = root / "assignment_4401_export"
    meta = []
    times = {JANE: "2024-03-05 22:10:33.123456789 -0500", ZOE: "2024-03-06 01:00:00 -0500",
             SEAN: "2024-03-05 12:00:00 -0500"}
    for number, s in enumerate(STUDENTS, start=1):
        _write(wrapper / f"submission_{900000 + number}" / FILE, s.code())
        meta += [f"submission_{900000 + number}:", "  :submitters:",
                 f"  - :name: {s.name}", f"    :sid: '{s.lms_id}'",
                 f"    :email: {s.email}", f"  :created_at: {times[s]}",
                 "  :score: ", "  :status: processed"]
    _write(wrapper / "submission_metadata.yml", "\n".join(meta) + "\n")
    _write(wrapper / ".DS_Store", "noise")
    return Expected({
        f"{JANE.name} ({JANE.lms_id})": (JANE.lms_id, 100, "2024-03-05T22:10:33.123456-05:00"),
        f"{ZOE.name} ({ZOE.lms_id})": (ZOE.lms_id, 85, "2024-03-06T01:00:00-05:00"),
        f"{SEAN.name} ({SEAN.lms_id})": (SEAN.lms_id, 0, "2024-03-05T12:00:00-05:00"),
    })


def plain(root: Path) -> Expected:
    _write(root / "jane doe" / "submission" / FILE, JANE.code())
    _write(root / "zoë" / FILE, ZOE.code())
    shutil.make_archive(str(root / "sean"), "zip", SAMPLES / SEAN.sample)
    _write(root / "class-list.txt", "stray")
    return Expected({"jane doe": ("jane doe", 100, None), "zoë": ("zoë", 85, None),
                     "sean": ("sean", 0, None)})


BUILDERS = {"moodle": moodle, "canvas": canvas, "brightspace": brightspace, "markus": markus,
            "gradescope": gradescope, "plain": plain}


def build(layout: str, folder: Path, *, zipped: bool = False) -> tuple[Path, Expected]:
    """The export of ``layout`` under ``folder`` (its class zip with ``zipped``)."""
    root = folder / layout
    root.mkdir(parents=True)
    expected = BUILDERS[layout](root)
    if not zipped:
        return root, expected
    archive = shutil.make_archive(str(folder / f"{layout}-export"), "zip", root)
    return Path(archive), expected


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "lms-exports")
    for name in BUILDERS:
        path, _ = build(name, target)
        print(path)
