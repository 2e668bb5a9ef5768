"""What every intake layout shares: the records it yields and the safe handling of exports.

A layout turns an LMS export (or a plain class folder) into :class:`Found` submissions: the
LMS's student id, the display name, the files (a folder, a zip, or files staged into a folder of
their own), and the submission time when the export carries one. What a layout cannot place (a
stray file, two candidates, a wrapper folder) becomes a note: printed in the console and kept
in the report, never a silent pick.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import shutil
import traceback
import unicodedata
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import ClassVar

from graders.handin import IGNORED_PARTS, MAX_FILE_BYTES, archive_stem, clean_text, open_zip

CLASS_MAX_ENTRIES = 50_000  # a class zip: a thousand students with a few dozen files each
CLASS_MAX_BYTES = 1024 * 1024 * 1024
ARCHIVE_MAX_BYTES = 256 * 1024 * 1024  # an archive in a class zip: a student's, or the export's
MAX_NAME_BYTES = 200  # of one path part on disk: below the usual 255, room for suffixes
UNSAFE_IN_NAMES = re.compile(r"[\x00-\x1f\x7f-\x9f/\\]")
NOISE = IGNORED_PARTS | {"Thumbs.db", "desktop.ini"}


@dataclass
class Found:
    """One submission in an export."""

    id: str  # the id it is graded and reported under (the batch keeps ids unique)
    source: Path  # the folder, zip or file the intake reads
    lms_id: str = ""
    display_name: str = ""
    email: str = ""
    submitted_at: datetime | None = None  # naive when the export gives no zone (see batch)
    due: datetime | None = None  # the student's own due date (--extensions); None: the batch's
    notes: list[str] = field(default_factory=list)  # shown in this student's report
    online_text: str | None = None  # text typed into the LMS instead of a file
    lms: dict[str, str] = field(default_factory=dict)  # layout's own facts (export name, ...)

    def cleaned(self) -> Found:
        """This record with every text made safe to write out (:func:`clean_text`): a name
        read from a folder whose bytes are not UTF-8 must not crash the class's reports."""
        self.id, self.lms_id = clean_text(self.id), clean_text(self.lms_id)
        self.display_name, self.email = clean_text(self.display_name), clean_text(self.email)
        self.notes = [clean_text(note) for note in self.notes]
        self.lms = {clean_text(key): clean_text(value) for key, value in self.lms.items()}
        return self


@dataclass
class Intake:
    """Everything an export holds, and what could not be placed."""

    layout: str
    found: list[Found] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # export-level: console and report

    def cleaned(self) -> Intake:
        """Every text of the export made safe to write out (:meth:`Found.cleaned`)."""
        self.found = [found.cleaned() for found in self.found]
        self.notes = [clean_text(note) for note in self.notes]
        return self


class Layout:
    """One export layout. Subclasses are found by :mod:`graders.intake` by looking."""

    name: ClassVar[str]
    title: ClassVar[str]
    example: ClassVar[str]  # an example path inside such an export
    priority: ClassVar[int] = 50  # detection order: lower first; `plain` is the fallback

    def detect(self, root: Path) -> bool:
        """True when the folder ``root`` looks like this layout's export."""
        raise NotImplementedError

    def read(self, root: Path, stage: Path) -> Intake:
        """The submissions in ``root``; files that must be renamed or merged are copied into
        folders under ``stage`` (never into the export)."""
        raise NotImplementedError


def entries(root: Path) -> list[Path]:
    """The visible entries of ``root``, sorted, without OS and editor noise."""
    return sorted(
        path for path in root.iterdir()
        if not path.name.startswith(".") and path.name not in NOISE
    )


def mostly(paths: list[Path], fits: Callable[[Path], bool]) -> bool:
    """True when at least half of ``paths`` (and at least one) fit a layout's naming: an
    export may hold a stray file or two, never mostly strays."""
    fitting = sum(1 for path in paths if fits(path))
    return fitting > 0 and fitting * 2 >= len(paths)


def stray(path: Path, layout: str) -> str:
    """The note for an entry of an export that belongs to no student."""
    kind = "folder" if path.is_dir() else "file"
    return (f"`{path.name}`: this {kind} does not follow the {layout} naming, so it "
            "belongs to no student; it was not graded")


class Stage:
    """Folders of staged files, one per submission, under one root."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.count = 0

    def folder(self, files: dict[str, Path], notes: list[str] | None = None) -> Path:
        """A new folder holding ``files`` (submitted name -> file in the export). Each name is
        made safe on disk (:func:`safe_name`); an upload that cannot be copied is left out.
        Both are said in ``notes`` (the student's), and the other uploads are staged."""
        self.count += 1
        target = self.root / f"s{self.count:05d}"
        target.mkdir(parents=True)
        said = notes if notes is not None else []
        taken: set[str] = set()
        for name, path in files.items():
            safe = "/".join(safe_name(part) for part in name.split("/"))
            if safe in taken:  # two names made safe alike: both kept, apart
                stem, dot, suffix = safe.rpartition(".") if "." in safe else (safe, "", "")
                tag = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:8]
                safe = f"{stem}~{tag}{dot}{suffix}"
            taken.add(safe)
            if safe != name:
                said.append(f"`{name}` is kept as `{safe}`: its name cannot be a file name "
                            "here (`..`, too long, control characters, or alike another's)")
            try:
                destination = target / safe
                destination.parent.mkdir(parents=True, exist_ok=True)
                if path.is_dir():
                    shutil.copytree(path, destination, symlinks=True)
                elif not path.is_symlink():
                    shutil.copyfile(path, destination)
            except OSError as exc:
                said.append(f"`{name}` could not be read from the export "
                            f"({exc.strerror or exc}); it was not graded")
        return target


def safe_name(name: str) -> str:
    """One path part made safe on disk: control characters, ``/`` and ``\\`` become ``_``;
    ``""``, ``.`` and ``..`` get a leading ``_``; a name over ``MAX_NAME_BYTES`` keeps its
    start and its end (the extension) around a hash of the whole, so long names stay apart."""
    safe = UNSAFE_IN_NAMES.sub("_", name)
    if safe in ("", ".", ".."):
        return "_" + safe
    encoded = safe.encode("utf-8", "surrogateescape")
    if len(encoded) <= MAX_NAME_BYTES:
        return safe
    digest = hashlib.sha256(encoded).hexdigest()[:10]
    head = encoded[:120].decode("utf-8", "ignore")
    tail = encoded[-40:].decode("utf-8", "ignore")
    return f"{head}~{digest}~{tail}"


def contained(make: Callable[[], Found], fallback: Found, staging: Stage) -> Found:
    """``make()``, or, when reading this one submission fails in any way, ``fallback`` with
    the reason and an empty staged folder: that student's intake problem, never the class's."""
    try:
        return make()
    except Exception as exc:  # noqa: BLE001 - one upload must not stop the class
        where = traceback.extract_tb(exc.__traceback__)[-1]
        fallback.notes.append(
            f"this submission could not be read from the export ({type(exc).__name__}: "
            f"{exc}; in {Path(where.filename).name}:{where.lineno}); nothing of it was graded"
        )
        fallback.source = staging.folder({})
        return fallback


def plain_name(text: str) -> str:
    """``text`` without accents, lowercased, spaces collapsed (to compare names)."""
    decomposed = unicodedata.normalize("NFKD", text)
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(letters.lower().split())


def named(display: str, lms_id: str) -> str:
    """The id a submission is reported under: ``Jane Doe (12345)``."""
    display = " ".join(display.split())
    return f"{display} ({lms_id})" if display and display != lms_id else lms_id


def unpack(archive_path: Path, target: Path) -> list[str]:
    """Unpack a class zip into ``target`` safely; the problems met, as notes.

    Like a student's zip (see :mod:`graders.submissions`): no absolute or ``..`` paths, no
    symbolic links, at most ``MAX_FILE_BYTES`` per file, and caps on entries and bytes sized
    for a whole class.
    """
    notes: list[str] = []
    try:
        archive = open_zip(archive_path)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        return [f"`{archive_path.name}` could not be opened as a zip: {exc}"]
    total = 0
    with archive:
        members = [info for info in archive.infolist() if not info.is_dir()]
        _empty_folders(archive, target)
        if len(members) > CLASS_MAX_ENTRIES:
            notes.append(f"`{archive_path.name}` holds more than {CLASS_MAX_ENTRIES} files; "
                         "the rest were not unpacked")
            members = members[:CLASS_MAX_ENTRIES]
        for info in members:
            name = PurePosixPath(info.filename.replace("\\", "/"))
            if name.is_absolute() or ".." in name.parts or not name.parts:
                notes.append(f"`{info.filename}` has an unsafe path in the zip; not unpacked")
                continue
            if NOISE & set(name.parts):
                continue
            if (info.external_attr >> 16) & 0o170000 == 0o120000:
                notes.append(f"`{info.filename}` is a symbolic link; not unpacked")
                continue
            # a student's zip, or the export zipped again, may be larger than one file
            cap = min(CLASS_MAX_BYTES - total, ARCHIVE_MAX_BYTES) if archive_stem(name.name) \
                else MAX_FILE_BYTES
            try:
                with archive.open(info) as member:
                    data = member.read(cap + 1)[:cap]
            except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError,
                    NotImplementedError, ValueError) as exc:
                notes.append(f"`{info.filename}` could not be unpacked ({exc})")
                continue
            total += len(data)
            if total > CLASS_MAX_BYTES:
                notes.append(f"`{archive_path.name}` unpacks to too much data; stopped")
                break
            notes += _unpacked(target, name.parts, info.filename, data)
    return notes


def _empty_folders(archive: zipfile.ZipFile, target: Path) -> None:
    """The zip's folders that hold no file: a student's empty folder in an export is a
    student who handed in nothing, and gets a row, as in the unzipped export."""
    holding = {parent for info in archive.infolist() if not info.is_dir()
               for parent in PurePosixPath(info.filename.replace("\\", "/")).parents}
    for info in archive.infolist()[:CLASS_MAX_ENTRIES]:
        name = PurePosixPath(info.filename.replace("\\", "/"))
        if (info.is_dir() and name not in holding and not name.is_absolute() and name.parts
                and ".." not in name.parts and not NOISE & set(name.parts)):
            with contextlib.suppress(OSError):
                target.joinpath(*(safe_name(part) for part in name.parts)).mkdir(
                    parents=True, exist_ok=True)


def _unpacked(target: Path, parts: tuple[str, ...], shown: str, data: bytes) -> list[str]:
    """Write one member under a safe name; what went wrong, as notes (never raises)."""
    safe = [safe_name(part) for part in parts]
    notes = []
    if safe != list(parts):
        notes.append(f"`{shown}` was unpacked as `{'/'.join(safe)}`: its name is too long "
                     "or not safe on disk")
    try:
        destination = target.joinpath(*safe)
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)
    except OSError as exc:
        notes.append(f"`{shown}` could not be unpacked ({exc.strerror or exc}: a file and a "
                     "folder of one name, or a name the disk refuses); it was not graded")
    return notes


TAGS = re.compile(r"<[^>]*>")
HIDDEN_BLOCKS = re.compile(r"<(head|style|script)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
BREAKS = re.compile(r"<\s*(br|/p|/div|/li|/pre|/h\d)\b[^>]*>", re.IGNORECASE)


def html_text(markup: str) -> str:
    """The text a student typed into an LMS editor (``onlinetext.html``), line breaks kept."""
    import html

    text = HIDDEN_BLOCKS.sub("", markup.replace("\r\n", "\n"))
    text = BREAKS.sub("\n", text)
    text = TAGS.sub("", text)
    text = html.unescape(text).replace("\xa0", " ")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n") + "\n"
