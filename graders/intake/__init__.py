"""Intake: turn what an LMS exports (or a plain class folder) into submissions to grade.

One module per layout, each registering a :class:`~graders.intake.base.Layout` subclass with
``@register`` (:class:`graders.registry.Registry`, like the rules). :func:`ingest` unpacks a
class zip safely, steps into a wrapper folder when an export sits inside one (and says so),
picks the layout (or takes the one asked for) and returns what it found. Times come from the
export's own metadata only; the student's files never give one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from graders.errors import GraderError
from graders.handin import archive_stem
from graders.intake.base import Found, Intake, Layout, entries, unpack
from graders.registry import Registry

_LAYOUTS: Registry[type[Layout]] = Registry(__name__, "layout", lambda layout: layout.name)
#: Class decorator adding a layout (a :class:`Layout` subclass) under its ``name``.
register = _LAYOUTS.register

__all__ = ["Found", "Intake", "Layout", "detect_layout", "get_layout", "ingest", "layouts",
           "register"]


@cache
def layouts() -> dict[str, Layout]:
    """Every layout by name, in detection order (the plain layout last)."""
    found = [layout() for layout in _LAYOUTS.all().values()]
    found.sort(key=lambda layout: (layout.priority, layout.name))
    return {layout.name: layout for layout in found}


def get_layout(name: str) -> Layout:
    known = layouts()
    if name not in known:
        raise GraderError(f"no layout {name!r}; known layouts: {', '.join(known)}")
    return known[name]


def ingest(path: Path, stage: Path, layout: str | None = None) -> Intake:
    """The submissions under ``path`` (a folder, a class zip, a student's zip or file).

    ``stage`` is an empty folder this call may fill (unpacked zips, renamed files); it must
    live as long as the submissions are graded. A zip whose top level is one folder per
    student is a class (``plain`` or ``markus``); any other zip no LMS layout recognises is one
    student's hand-in, as a file is. Each submission's ``lms["layout"]`` names the layout, so
    an export can tell whose ids it holds.
    """
    intake = _ingest(path, stage, layout).cleaned()
    for found in intake.found:
        found.lms.setdefault("layout", intake.layout)
    return intake


def _ingest(path: Path, stage: Path, layout: str | None, depth: int = 0) -> Intake:
    from graders.intake.plain import single

    if path.is_file() and path.suffix.lower() != ".zip":
        return Intake("plain", [single(path)])
    notes: list[str] = []
    root = path
    if path.is_file():
        unpacked = stage / "unpacked"
        unpacked.mkdir(parents=True)
        unpack_notes = unpack(path, unpacked)
        inner = _lone_zip(unpacked)
        if inner is not None and depth < 2:  # the export zipped again, or one student's zip
            intake = _ingest(inner, stage / "inner", layout, depth + 1)
            if intake.layout == "plain" and len(intake.found) == 1:
                return Intake("plain", [single(path)])  # one student's, under its own name
            intake.notes = [*unpack_notes, f"`{path.name}` holds one zip, `{inner.name}`: it "
                            "was read as the export", *intake.notes]
            return intake
        root, wrapper = _unwrapped(unpacked, layout)
        if _lms(root, layout) is None:  # not an LMS export: a class of folders, or one student
            class_root, wrapper = _class_root(unpacked)
            if class_root is None:
                if layout not in (None, "plain"):
                    raise GraderError(f"{path}: not a {get_layout(layout).title} export")
                if not any(map(_handed_in_code, unpacked.rglob("*"))):
                    return Intake("plain", notes=[f"`{path.name}` holds no Python file: "
                                                  "nothing in it could be a submission"])
                return Intake("plain", [single(path)], _maybe_a_class(path, unpacked))
            root = class_root
            kind = "folder" if all(p.is_dir() for p in entries(root)) else "archive or folder"
            wrapper.append(f"`{path.name}` holds one {kind} per student: each {kind} was "
                           "graded as one student's submission")
        notes = unpack_notes + wrapper
    else:
        lone, beside = _lone_zip_in(path)
        if lone is not None and depth < 2:  # the folder the export was downloaded into
            intake = _ingest(lone, stage / "inner", layout, depth + 1)
            intake.notes = [f"`{path.name}/` holds one zip, `{lone.name}`: it was read as "
                            "what was handed in", *_unread(beside), *intake.notes]
            return intake
        root, notes = _unwrapped(path, layout)
    chosen = get_layout(layout) if layout else (_lms(root, None) or get_layout("plain"))
    intake = chosen.read(root, stage / "staged")
    intake.notes = notes + intake.notes
    return intake


def _class_root(unpacked: Path) -> tuple[Path | None, list[str]]:
    """The folder of an unpacked zip whose entries are one folder per student (stepping into
    lone wrapper folders), or None when the zip is one student's hand-in: its top level holds
    a file of code, or fewer than two folders that each hold code. A folder without code
    (the student handed in a PDF or a .txt) is a student too where the folders are students:
    three at least and two thirds of them hold code, two of those a file of one name (one
    student's ``v1/``, ``v2/`` and ``report/`` stay one hand-in). With no folder, three
    archives or more are a class of student archives."""
    root, notes = _inside_wrappers(unpacked), list[str]()
    inside = entries(root)
    folders = [p for p in inside if p.is_dir()]
    archives = [p for p in inside if p.is_file() and archive_stem(p.name) is not None]
    if any(p.is_file() and p.suffix.lower() == ".py" for p in inside):
        return None, notes
    if not folders:  # a class of student archives (alice.zip, bob.zip, ...): three at least
        return (root, notes) if len(archives) >= CLASS_OF_ARCHIVES else (None, notes)
    if len(folders) < 2:
        return None, notes
    coded = [folder for folder in folders if any(map(_handed_in_code, folder.rglob("*")))]
    if len(coded) < len(folders) and (len(coded) < 3 or 3 * len(coded) < 2 * len(folders)
                                      or not _a_name_in_two(coded)):
        return None, notes
    if root != unpacked:
        notes.append(f"`{root.name}/` is a wrapper folder around the class: its contents were "
                     "graded")
    return root, notes


def _maybe_a_class(path: Path, unpacked: Path) -> list[str]:
    """The note for a zip graded as one student's although several of its folders hold code
    (one student's ``v1/`` and ``v2/``, or a class too small to tell from them)."""
    coded = [folder.name for folder in entries(_inside_wrappers(unpacked))
             if folder.is_dir() and any(map(_handed_in_code, folder.rglob("*")))]
    if len(coded) < 2:
        return []
    shown = ", ".join(f"`{name}/`" for name in coded)
    return [f"`{path.name}` was graded as ONE student's hand-in: its folders {shown} hold code, "
            "too few to tell a class from one student's versions. If each folder is a "
            "student, unzip it and grade the folder"]


CLASS_OF_ARCHIVES = 3  # fewer archives in a zip are one student's parts (part1.zip, part2.zip)


def _inside_wrappers(folder: Path) -> Path:
    """``folder``, or the folder inside lone wrapper folders (three deep at most)."""
    for _ in range(3):
        inside = entries(folder)
        if len(inside) != 1 or not inside[0].is_dir():
            break
        folder = inside[0]
    return folder


def _lone_zip(unpacked: Path) -> Path | None:
    """The one zip an unpacked zip holds and nothing else, in lone wrapper folders or not."""
    inside = entries(_inside_wrappers(unpacked))
    if len(inside) == 1 and inside[0].is_file() and inside[0].suffix.lower() == ".zip":
        return inside[0]
    return None


def _lone_zip_in(folder: Path) -> tuple[Path | None, list[Path]]:
    """The one zip of ``folder`` (a folder an export was downloaded into), where nothing else
    there could be handed-in work: no folder, no code, no second archive; and what lies beside
    it (a gradebook CSV, say)."""
    inside = entries(folder)
    zips = [p for p in inside if p.is_file() and p.suffix.lower() == ".zip"]
    beside = [p for p in inside if p not in zips]
    if len(zips) != 1 or any(p.is_dir() or _handed_in_code(p) for p in beside):
        return None, []
    return zips[0], beside


def _unread(beside: list[Path]) -> list[str]:
    """The notes for files lying beside a zip read as the export."""
    return [f"`{path.name}` beside it was not read (a gradebook or roster CSV goes to "
            "`--roster`)" for path in beside]


def _a_name_in_two(folders: list[Path]) -> bool:
    """Whether two of ``folders`` hold a file of code of one name (a package's
    ``__init__.py`` aside): what students handing in one assignment do, and the folders of
    one student's project (``src/``, ``tests/``) do not."""
    seen: set[str] = set()
    for folder in folders:
        names = {path.name.lower() for path in folder.rglob("*")
                 if _handed_in_code(path) and path.name != "__init__.py"}
        if names & seen:
            return True
        seen |= names
    return False


def _handed_in_code(path: Path) -> bool:
    """A file a student hands in as their code: Python, a notebook, or an archive of them."""
    return path.suffix.lower() in (".py", ".ipynb") or archive_stem(path.name) is not None


def detect_layout(root: Path) -> Layout:
    """The layout ``root`` (a folder) is in: the first LMS layout that recognises it, else
    the plain folder-per-student layout."""
    return _lms(root, None) or get_layout("plain")


def _lms(root: Path, layout: str | None) -> Layout | None:
    """The LMS layout (not `plain`) whose export ``root`` is, if any."""
    if not root.is_dir():
        return None
    candidates = [get_layout(layout)] if layout else list(layouts().values())
    return next((c for c in candidates if c.name != "plain" and c.detect(root)), None)


def _unwrapped(root: Path, layout: str | None) -> tuple[Path, list[str]]:
    """``root``, or the one folder inside it holding an LMS export (a wrapper folder)."""
    notes = []
    for _ in range(3):
        inside = entries(root)
        if len(inside) != 1 or not inside[0].is_dir() or _lms(root, layout):
            break
        nested = _lms(inside[0], layout)
        if nested is None:
            break
        notes.append(f"`{inside[0].name}/` is a wrapper folder around the {nested.title} "
                     "export: its contents were graded")
        root = inside[0]
    return root, notes
