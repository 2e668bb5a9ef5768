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
from graders.extras import collect_extras, find_program, submission_root
from graders.handed_text import decoded
from graders.handin import (
    IGNORED_PARTS,
    Files,
    archive_stem,
    clean_text,
    problem,
    read_files,
)
from graders.pack import Pack
from graders.rules.base import Violation
from graders.sandbox.harness_kit import class_homes
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
        path = _pick(name, raw, submission, required=name in spec.files, pack=pack)
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
    reserved = [*pack.submitted_files, *pack.declaration.locked.files, *_kit_files(pack)]
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


def _kit_files(pack: Pack) -> list[str]:
    """Names of the starter kit's own files: a student's copy of one is never a helper."""
    folder = pack.templates_dir
    return [path.name for path in folder.iterdir() if path.is_file()] if folder.is_dir() else []


def _is_noise(name: str) -> bool:
    return PurePosixPath(name).suffix.lower() in {".pyc", ".pyo"} or name.endswith("~")


def _pick(
    name: str, raw: Files, submission: Submission, *, required: bool, pack: Pack
) -> str | None:
    """The path of submitted file ``name``, searching sub-folders and near-miss names; where
    the handout names no file (``entry_program``), the student's program. Of two copies, the
    one nearest the top; of two as near, the one changed last (``v2.zip`` over ``v1.zip``)."""
    by_base: dict[str, list[str]] = {}
    for path in raw:
        by_base.setdefault(PurePosixPath(path).name, []).append(path)
    if name in by_base:
        chosen = _nearest_newest(by_base[name], raw)
        others = sorted(path for path in by_base[name] if raw[path] != raw[chosen])
        if others:  # two versions handed in (a zip beside the file, v1/ and v2/): say which
            listed = ", ".join(f"`{path}`" for path in others[:5])
            submission.problems.append(problem(
                "intake", chosen, f"was graded as `{name}`, the copy nearest the top (of those "
                f"as near, the one changed last where the archives record it, else the first "
                f"by name); other copies with different contents were handed in too ({listed}) "
                "and were not graded"))
        return chosen
    candidates = [path for base, paths in by_base.items() if _near(base, name) for path in paths]
    if name == pack.declaration.submission.entry_program:  # the handout names no file
        return _pick_program(name, raw, submission, pack, near=candidates)
    if len(candidates) == 1:
        found = candidates[0]
        submission.problems.append(
            problem(
                "file-name",
                found,
                f"was graded as `{name}`; the assignment asks for exactly that name",
            )
        )
        return found
    home = _class_home(name, raw, pack) if not candidates else None
    if home is not None:
        found, cls = home
        submission.problems.append(problem(
            "file-name", found,
            f"was graded as `{name}`: it holds `{cls}`, which the assignment asks for in a file "
            f"named exactly `{name}`",
        ))
        return found
    if not required:
        return None
    reason = f"is missing: hand in a file named exactly `{name}`"
    if candidates:
        reason += f" (found several candidates: {', '.join(sorted(candidates))})"
    stem = name.lower().split(".")[0]
    compiled = sorted(path for path in raw if path.lower().endswith(".pyc")
                      and PurePosixPath(path).name.lower().split(".")[0] == stem)
    if compiled:  # Windows hides extensions: "myfile" the compiled file, not the source
        reason += (f"; `{compiled[0]}` was handed in, which is compiled bytecode, not the "
                   "source: it cannot be read or graded")
    submission.problems.append(problem("missing-file", name, reason))
    return None


def _nearest_newest(paths: list[str], raw: Files) -> str:
    """Of copies of one file, the one nearest the top; of those as near, the one changed last
    when the student's archives record every one's time (``v2.zip`` over ``v1.zip``), else
    the first by name."""
    nearest = min(len(PurePosixPath(path).parts) for path in paths)
    tied = sorted(path for path in paths if len(PurePosixPath(path).parts) == nearest)
    if all(path in raw.times for path in tied):
        return min(tied, key=lambda path: -raw.times[path])  # the first by name of the newest
    return tied[0]


def _class_home(name: str, raw: dict[str, bytes], pack: Pack) -> tuple[str, str] | None:
    """(path, class) of the one other module handed in that holds the class the pack pins in
    the missing file ``name`` (``Declaration.pinned_classes``), read with ``ast``."""
    pinned = pack.declaration.pinned_classes.get(name)
    if pinned is None:
        return None
    reserved = {*pack.submitted_files, *pack.declaration.locked.files, *_kit_files(pack)}
    sources = {path: data.decode("utf-8-sig", errors="replace") for path, data in raw.items()
               if path.endswith(".py") and PurePosixPath(path).name not in reserved}
    homes = class_homes(sources, pinned.name, pinned.base)
    return homes[0] if len(homes) == 1 else None


def _pick_program(
    name: str, raw: dict[str, bytes], submission: Submission, pack: Pack, near: list[str]
) -> str | None:
    """The student's program where the handout names no file: one file named like the graded
    name (a case variant, whatever it reads its arguments with), else the one reading ``sys.argv``
    (:func:`~graders.extras.find_program`); either way a program-file notice, never a wrong
    file name."""
    chosen, rest = find_program(raw, pack.declaration.locked.files)
    if len(near) == 1:
        chosen, rest = near[0], [path for path in [chosen, *rest] if path not in (None, near[0])]
    if chosen is None:
        submission.problems.append(problem(
            "missing-file", name,
            "is missing: no file of yours reads `sys.argv` (hand in the program that does)",
        ))
        return None
    also = f"; other programs found: {', '.join(f'`{p}`' for p in rest)}" if rest else ""
    submission.problems.append(problem(
        "program-file", chosen, f"was graded as the program (`{name}`){also}",
    ))
    return chosen


def _near(found: str, wanted: str) -> bool:
    """Case changes, a different extension, or an LMS/OS copy suffix like `(1)` or `-2`."""

    def key(text: str) -> str:
        stem = text.split(".", 1)[0].lower()
        return re.sub(r"[\s_-]*(\(\d+\)|copy|-\d+|_\d+)$", "", stem)

    return (found != wanted and key(found) == key(wanted) and not found.endswith(".pyc")
            and archive_stem(found) is None)


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
        target = workspace / name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_as_written(name, text))
        except OSError as exc:
            if exc.errno != errno.ENAMETOOLONG:
                raise
            _name_too_long(submission, name)
    for name, path in submission.aliases.items():
        original = workspace / PurePosixPath(path).name
        # A program's own name stays importable beside its alias; one no disk takes is only
        # the alias (the graded name holds the text).
        try:
            if not original.exists():
                original.write_bytes(_as_written(name, submission.files[name]))
        except OSError as exc:
            if exc.errno != errno.ENAMETOOLONG:
                raise
    for name in pack.declaration.locked.files:
        shutil.copyfile(pack.templates_dir / name, workspace / name)


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

