"""Turn what students handed in into clean workspaces, noting every problem on the way.

A submission is a folder or a ``.zip`` per student. Nothing here runs student code. Problems
(a missing file, a wrong file name, a non-UTF-8 file, an unsafe zip) become :class:`Violation`
records in the student's result, so the batch goes on and the report says what happened.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path, PurePosixPath

from graders.errors import GraderError
from graders.extras import collect_extras, submission_root
from graders.handed_text import decoded
from graders.handin import (
    IGNORED_PARTS,
    archive_stem,
    clean_text,
    problem,
    read_files,
)
from graders.pack import Pack
from graders.picking import kit_files, pick
from graders.rules.base import Violation
from graders.source_lines import python_bytes

META_FILE = "submission_meta.json"


@dataclass
class Submission:
    """One student's hand-in, ready to grade."""

    id: str
    source: Path
    workspace: Path
    files: dict[str, str] = field(default_factory=dict)
    problems: list[Violation] = field(default_factory=list)
    submitted_at: datetime | None = None
    due: datetime | None = None  # the student's own due date (an extension); None: the batch's
    digest: str = ""
    helpers: list[str] = field(default_factory=list)  # the student's own extra .py modules
    aliases: dict[str, str] = field(default_factory=dict)  # graded name -> name handed in
    ignored: list[str] = field(default_factory=list)  # handed in, not part of the assignment

    @property
    def slug(self) -> str:
        return slugify(self.id)


PLAIN_SLUG = re.compile(r"[a-z0-9][a-z0-9._-]{0,79}")
HASHED_TAIL = re.compile(r"-[0-9a-f]{10}$")


def slugify(name: str) -> str:
    """A file-system-safe, stable name for a student id, injective over ids.

    A plain id (lowercase ASCII letters, digits, ``._-``; at most 80 characters) is its own
    slug. Every other id (capitals, spaces, accents, look-alike letters, a leading dash, a very
    long name, or a plain name that ends like a hashed slug) becomes its cleaned, lowercased
    first 60 characters plus ``-`` and 10 hex digits of its SHA-256. So two different ids never
    share a slug, even on a case-insensitive disk: plain slugs are lowercase and never end like
    a hashed one, and hashed ones differ by their digest.
    """
    if PLAIN_SLUG.fullmatch(name) and not HASHED_TAIL.search(name):
        return name
    cleaned = re.sub(r"[^a-z0-9._-]+", "_", name.lower()).strip("._-")[:60].rstrip("._-")
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:10]
    return f"{cleaned or 'submission'}-{digest}"


def find_submissions(path: Path) -> list[Path]:
    """Each student folder or zip directly under ``path``; ``path`` itself if it holds files
    but no such folder (one student's folder), or is a file; nothing if it holds no file (an
    empty folder is no submission, never a student named after the folder)."""
    if path.is_file():
        return [path]
    entries = sorted(
        entry
        for entry in path.iterdir()
        if not entry.name.startswith(".")
        and entry.name not in IGNORED_PARTS
        and (entry.is_dir() or archive_stem(entry.name) is not None)
    )
    if entries:
        return entries
    handed_in = (
        p for p in path.rglob("*")
        if p.is_file() and not IGNORED_PARTS & set(p.relative_to(path).parts)
        and not any(part.startswith(".") for part in p.relative_to(path).parts)
    )
    return [path] if any(True for _ in handed_in) else []


def detect_assignment(paths: list[Path], packs: dict[str, Pack]) -> str | None:
    """The pack whose submitted file names best match the files in ``paths``."""
    names: set[str] = set()
    for path in paths[:50]:
        if path.is_dir():
            names |= {p.name.lower() for p in path.rglob("*") if p.is_file()}
        elif path.suffix.lower() == ".zip":
            try:
                with zipfile.ZipFile(path) as archive:
                    names |= {PurePosixPath(n).name.lower() for n in archive.namelist()}
            except zipfile.BadZipFile:
                continue
    scores = {
        pack_id: sum(name.lower() in names for name in pack.declaration.submission.files)
        for pack_id, pack in packs.items()
    }
    best = max(scores.values(), default=0)
    winners = [pack_id for pack_id, score in scores.items() if score == best]
    return winners[0] if best and len(winners) == 1 else None


def student_id(source: Path) -> str:
    """The id a submission is graded and reported under: its folder name, or its archive's
    name without the suffix (``alice.zip``, ``alice.tar.gz``: ``alice``).

    An archive whose stem is also a folder (or another archive) beside it keeps its full name
    (``alice.zip`` beside ``alice/``): two hand-ins are two students, never silently merged.
    """
    stem = archive_stem(source.name)
    if stem is None:
        return clean_text(source.name)
    twins = [
        entry for entry in _siblings(source)
        if entry != source and stem in (entry.name, entry.stem, archive_stem(entry.name))
    ]
    return clean_text(source.name if twins else stem)


def _siblings(source: Path) -> list[Path]:
    try:
        return list(source.parent.iterdir())
    except OSError:
        return []


def prepare(
    source: Path, pack: Pack, work_root: Path, *, student: str | None = None,
    notes: Sequence[str] = (), submitted_at: datetime | None = None,
    due: datetime | None = None,
) -> Submission:
    """Collect, decode and check the student's files; build the workspace.

    ``student`` is the id the intake gave (default: the folder name or zip stem), ``notes``
    what the intake has to say about this submission (shown in its report, 0 points), and
    ``submitted_at`` the time from the LMS export or the instructor's ``--times`` file, ``due``
    the student's own due date (``--extensions``). A
    ``submission_meta.json`` the student hands in is ignored and named as ignored: a student
    never gives their own submission time.
    """
    student_id_ = student or student_id(source)
    submission = Submission(
        id=student_id_, source=source, workspace=work_root / slugify(student_id_),
        submitted_at=submitted_at, due=due,
    )
    submission.problems += [Violation(rule="intake", file="", message=note) for note in notes]
    spec = pack.declaration.submission
    raw = read_files(source, submission.problems, int(spec.max_mb * 1_000_000))
    picked: dict[str, str] = {}  # graded name -> path handed in
    for name in pack.submitted_files:
        path = pick(name, raw, submission.problems, required=name in spec.files, pack=pack)
        if path is not None:
            picked[name] = path
            submission.files[name] = decoded(name, raw[path], submission.problems,
                                             handed=path)
    _add_helpers(submission, pack, raw, picked)
    _ignore_student_times(submission, raw)
    _build_workspace(submission, pack)
    submission.digest = _digest(submission, pack)
    return submission


def materialize(submission: Submission, pack: Pack, work_root: Path) -> Submission:
    """The same submission with a fresh workspace under ``work_root``, built from its collected
    files alone (for a machine that cannot read the hand-in: a cluster worker)."""
    copy = replace(submission, workspace=work_root / slugify(submission.id))
    _build_workspace(copy, pack)
    return copy


def _add_helpers(
    submission: Submission, pack: Pack, raw: dict[str, bytes], picked: dict[str, str]
) -> None:
    """The student's own modules travel with the required files; the rest is listed."""
    reserved = [*pack.submitted_files, *pack.declaration.locked.files, *kit_files(pack)]
    root = submission_root(picked.values())
    extras = collect_extras(raw, picked.values(), reserved, root)
    for name, data in extras.helpers.items():
        if name in submission.files:
            continue
        submission.files[name] = decoded(name, data, submission.problems)
        submission.helpers.append(name)
    for name, path in picked.items():
        if PurePosixPath(path).name != name and path in raw:
            submission.aliases[name] = path
    if submission.helpers and pack.declaration.submission.extra_files == "forbid":
        listed = ", ".join(f"`{name}`" for name in submission.helpers)
        submission.problems.append(problem(
            "extra-files", submission.helpers[0],
            f"(and {listed}) are not part of the assignment, which allows only its own files",
        ))
    submission.ignored = [name for name in extras.ignored if not _is_noise(name)]


def _is_noise(name: str) -> bool:
    return PurePosixPath(name).suffix.lower() in {".pyc", ".pyo"} or name.endswith("~")


def _ignore_student_times(submission: Submission, raw: dict[str, bytes]) -> None:
    """A time file in the hand-in is listed as ignored, with a 0-point notice saying why."""
    for path in sorted(raw):
        if PurePosixPath(path).name.lower() == META_FILE:
            if path not in submission.ignored:
                submission.ignored.append(path)
            submission.problems.append(problem(
                "ignored-file", path,
                "was ignored: submission times come from the LMS export or the instructor's "
                "`--times` file, never from a file in the hand-in",
            ))


def _build_workspace(submission: Submission, pack: Pack) -> None:
    workspace = submission.workspace
    try:  # exclusive: a workspace is never shared with, or taken over from, another student
        workspace.mkdir(parents=True)
    except FileExistsError:
        raise GraderError(f"workspace {workspace} already exists (two submissions, one "
                          "workspace): refusing to mix their files") from None
    for name, text in list(submission.files.items()):
        if not _written(workspace / name, _as_written(name, text)):
            _name_too_long(submission, name)
    for name, path in submission.aliases.items():
        # A program's own name stays importable beside its alias; one no disk takes is only
        # the alias (the graded name holds the text).
        _written(workspace / PurePosixPath(path).name, _as_written(name, submission.files[name]),
                 keep=True)
    for name in pack.declaration.locked.files:
        shutil.copyfile(pack.templates_dir / name, workspace / name)


def _written(target: Path, data: bytes, *, keep: bool = False) -> bool:
    """Write ``data`` to ``target`` (its folders made; ``keep``: not over an existing file);
    False when no file system takes the name (ENAMETOOLONG), any other error raised."""
    try:
        if keep and target.exists():
            return True
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:
            raise
        return False
    return True


def _name_too_long(submission: Submission, name: str) -> None:
    """A handed-in file no file system can hold under its name (a folder or file name over
    255 bytes, a path past the limit): the student's problem, not a grader error."""
    del submission.files[name]
    if name in submission.helpers:
        submission.helpers.remove(name)
    if name not in submission.ignored:
        submission.ignored.append(name)
    shown = name if len(name) <= 80 else f"{name[:40]}…{name[-30:]}"
    submission.problems.append(problem(
        "intake", shown, f"has a name too long for a file system ({len(os.fsencode(name))} "
        "bytes; at most 255 in a folder or file name, and 4096 in all): it was not graded. "
        "Give it a shorter name"))


def _as_written(name: str, text: str) -> bytes:
    """A handed-in file's text as the workspace holds it: UTF-8, or for a Python file the
    encoding its first lines declare (what the student's interpreter read)."""
    return python_bytes(text) if name.endswith(".py") else text.encode("utf-8")


def _digest(submission: Submission, pack: Pack) -> str:
    hasher = hashlib.sha256()
    for path in sorted(submission.workspace.rglob("*")):
        if path.is_file():
            name = path.relative_to(submission.workspace).as_posix()
            hasher.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    hasher.update(json.dumps([p.to_dict() for p in submission.problems], sort_keys=True).encode())
    return hasher.hexdigest()

