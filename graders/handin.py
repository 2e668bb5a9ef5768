"""Reading what a student handed in, safely: a folder, a zip, a tar archive or a single file.

Nothing is run or extracted to disk. Zips and tars (``.tar``, ``.tar.gz``/``.tgz``,
``.tar.bz2``, ``.tar.xz``: what a Linux or Mac student makes) are read member by member with
caps on entries, total size and each file's size (headers may lie: no member is decompressed
past its cap, and a tar is not read past ten times the cap); absolute paths, ``../``, links
and devices are refused and reported, never followed. A RAR or 7-Zip archive, which the
standard library cannot open, is that student's reported problem.
"""

from __future__ import annotations

import calendar
import io
import lzma
import tarfile
import zipfile
import zlib
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from graders.rules.base import Violation

# Never the student's work: system litter, and the caches their tools leave (python_ta's mypy
# run, pytest, Hypothesis, Jupyter) beside their files.
IGNORED_PARTS = {"__MACOSX", "__pycache__", ".DS_Store", ".git", ".idea", ".vscode",
                 ".mypy_cache", ".pytest_cache", ".hypothesis", ".ipynb_checkpoints"}
MAX_ZIP_ENTRIES = 500
MAX_ZIP_BYTES = 20 * 1024 * 1024
MAX_FILE_BYTES = 2 * 1024 * 1024
NESTING = 3  # archives inside archives opened this deep (a folder counts none)
SEARCH_DEPTH = 4
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
UNREADABLE = {".rar": "RAR", ".7z": "7-Zip"}
ARCHIVE_SUFFIXES = (".zip", *TAR_SUFFIXES, *UNREADABLE)
TAR_ERRORS = (tarfile.TarError, OSError, EOFError, ValueError, zlib.error, lzma.LZMAError)
# A virtual environment zipped with the project (PyCharm's venv/): never the student's work, and
# thousands of files that would crowd the student's own out of the entry cap.
ENVIRONMENT_MARK = "pyvenv.cfg"
PACKAGE_PARTS = frozenset({"site-packages", "dist-packages"})
# The student pre-check kit (graders/kit), handed in with the student's files when they zip the
# folder they worked in: its machinery, and the files the kit puts beside it.
KIT_MARK = ("_precheck", "kit.json")
KIT_FILES = frozenset({"precheck.py", "conftest.py", "pytest.ini", "requirements.txt",
                       "README.txt"})


def clean_text(text: str) -> str:
    """``text`` made safe to write out as UTF-8. A file name whose bytes are not UTF-8 comes
    from the file system with lone surrogates (which would crash every report); those bytes
    are shown as ``\\xff`` instead, so two different names stay different."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


class Files(dict[str, bytes]):
    """A hand-in's files by relative path, with the time each was last changed where the
    student's archive records it (``times``: a zip or tar member's stamp). A file's time on
    the grader's disk is not the student's (an LMS export is unpacked when it is graded)."""

    def __init__(self) -> None:
        super().__init__()
        self.times: dict[str, float] = {}

    def add(self, name: str, data: bytes, changed: float | None = None) -> None:
        self[name] = data
        if changed is not None:
            self.times[name] = changed


def read_files(source: Path, problems: list[Violation], cap: int = MAX_ZIP_BYTES) -> Files:
    """Every file of a hand-in (a folder, an archive or one file) by relative POSIX path, at
    most ``MAX_FILE_BYTES`` each and ``cap`` bytes in all (Python files first, so the required
    files are read before a heap of data files); what is refused is added to ``problems``.
    An archive in a folder (an LMS keeps the zip a student uploaded in their folder) is opened
    in place: its members stand in a folder named after it (``a3.zip`` -> ``a3/...``), and so
    is an archive inside an archive (``submission.zip`` holding ``A2.zip``), ``NESTING``
    deep at most (a zip that holds itself ends there)."""
    files = _read_folder(source, problems, cap) if source.is_dir() else \
        _read_file(source, problems, cap)
    for _ in range(NESTING):
        if not any(archive_stem(PurePosixPath(name).name) for name in files):
            break
        files = _open_archives(files, problems, cap)
    for name in sorted(files):
        if archive_stem(PurePosixPath(name).name):
            problems.append(problem("archive", name, f"is an archive inside {NESTING} archives "
                                    "or more; it was not opened: hand in your files, or one "
                                    ".zip of them"))
    return _without_kits(files, problems)


def _without_kits(files: Files, problems: list[Violation]) -> Files:
    """``files`` without the pre-check kit's own (a folder holding ``_precheck/kit.json``:
    its ``_precheck/`` and the files the kit puts beside it), each such folder named in
    ``problems`` as left out: the kit's code is never the student's work."""
    roots = {path.parents[1] for path in map(PurePosixPath, files)
             if path.parts[-2:] == KIT_MARK}
    if not roots:
        return files
    kept = Files()
    for name, data in files.items():
        path = PurePosixPath(name)
        from_kit = path.name != "README.txt" or b"precheck.py" in data  # not their own README
        if not any(root / KIT_MARK[0] in path.parents
                   or (from_kit and path.parent == root and path.name in KIT_FILES)
                   for root in roots):
            kept.add(name, data, files.times.get(name))
    for root in sorted(roots):
        where = "" if root == PurePosixPath(".") else f"{root}/"
        problems.append(problem("intake", clean_text(where + KIT_MARK[0] + "/"),
                                "and the files beside it that came with it (precheck.py, "
                                "conftest.py, ...) are the pre-check kit's, not your work; "
                                "they were left out, and your own files beside them graded"))
    return kept


def _read_file(path: Path, problems: list[Violation], cap: int,
               held: bytes | None = None) -> Files:
    """One file handed in: an archive's members, else the file itself (``held``: its bytes,
    when a folder's reading holds them already)."""
    name = path.name.lower()
    if name.endswith(".zip"):
        return _read_zip(path, problems, cap, held)
    if name.endswith(TAR_SUFFIXES):
        return _read_tar(path, problems, cap, held)
    for suffix, kind in UNREADABLE.items():
        if name.endswith(suffix):
            problems.append(problem("archive", path.name, f"is a {kind} archive, which the "
                                     "grader cannot open: hand in a .zip, or the files themselves"))
            return Files()
    files = Files()
    files.add(path.name, _cut(path.name, _head(path), problems) if held is None else held)
    return files


def _open_archives(files: Files, problems: list[Violation], cap: int) -> Files:
    """``files`` with each archive among them replaced by its members, under a folder named
    after it, within what is left of ``cap`` (archives inside those are left for the next
    round)."""
    plain = Files()
    for name, data in files.items():
        if archive_stem(PurePosixPath(name).name) is None:
            plain.add(name, data, files.times.get(name))
    left = cap - sum(map(len, plain.values()))
    for name in sorted(set(files) - set(plain)):
        where = PurePosixPath(name)
        members = _read_file(Path(where.name), problems, max(left, 0), files[name])
        left -= sum(map(len, members.values()))
        folder = where.parent / (archive_stem(where.name) or where.name)
        for member, data in members.items():
            plain.add((folder / member).as_posix(), data, members.times.get(member))
    return plain


def archive_stem(name: str) -> str | None:
    """``name`` without its archive suffix (``alice.tar.gz`` -> ``alice``), or None when it
    names no archive."""
    lower = name.lower()
    return next((name[:-len(suffix)] for suffix in ARCHIVE_SUFFIXES
                 if lower.endswith(suffix) and len(name) > len(suffix)), None)


def environments(names: Iterable[str], problems: list[Violation]) -> set[PurePosixPath]:
    """The folders among ``names`` that are Python virtual environments (each holds
    ``pyvenv.cfg``), each named in ``problems`` as left out."""
    found = {PurePosixPath(name).parent for name in names
             if PurePosixPath(name).name == ENVIRONMENT_MARK} - {PurePosixPath(".")}
    for folder in sorted(found):
        problems.append(problem("intake", clean_text(f"{folder}/"), "is a Python virtual "
                                 f"environment (it holds {ENVIRONMENT_MARK}); it was left out"))
    return found


def packaged(name: PurePosixPath, found: set[PurePosixPath]) -> bool:
    """Whether ``name`` lies in a virtual environment ``found``, or among installed packages."""
    return bool(PACKAGE_PARTS & set(name.parts)) or any(env in name.parents for env in found)


def _python_first(name: str) -> tuple[bool, int, str]:
    path = PurePosixPath(name)
    return path.suffix != ".py", len(path.parts), name


def _over_cap(
    problems: list[Violation], source: Path, skipped: list[str], cap: int, zipped: bool
) -> None:
    if skipped:
        shown = ", ".join(f"`{name}`" for name in skipped[:5])
        more = f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
        what = "unpacks to too much data: over" if zipped else "is over"
        problems.append(problem(
            "zip" if zipped else "too-large", source.name,
            f"{what} the assignment's cap of {cap / 1e6:g} MB per student; {len(skipped)} "
            f"file(s) past it were not read ({shown}{more})"))


def _stamped(stamp: tuple[int, int, int, int, int, int]) -> float | None:
    """A zip member's stamp (the student's clock) as seconds, None when it is no date."""
    try:
        return calendar.timegm((*stamp, 0, 0, 0))
    except (OverflowError, ValueError):
        return None


def _cut(name: str, data: bytes, problems: list[Violation]) -> bytes:
    """``data`` cut to ``MAX_FILE_BYTES``, with a problem naming the file when it was longer
    (a truncated file is otherwise graded as if the student had written only its start)."""
    if len(data) > MAX_FILE_BYTES:
        problems.append(problem("too-large", name, f"is over the {MAX_FILE_BYTES >> 20} MB a "
                                 "file may be: only its start was read"))
    return data[:MAX_FILE_BYTES]


def _head(path: Path) -> bytes:
    """At most ``MAX_FILE_BYTES`` and one byte of ``path``: a 10 GB file is never read whole
    (the byte over tells :func:`_cut` it was longer)."""
    with path.open("rb") as handle:
        return handle.read(MAX_FILE_BYTES + 1)


def _read_folder(folder: Path, problems: list[Violation], cap: int) -> Files:
    kept: list[Path] = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if IGNORED_PARTS & set(relative.parts) or len(relative.parts) > SEARCH_DEPTH:
            continue
        if path.is_symlink():
            problems.append(
                problem("symlink", clean_text(str(relative)), "is a symbolic link; it was ignored")
            )
            continue
        if path.is_file():
            kept.append(path)
    found = environments((path.relative_to(folder).as_posix() for path in kept), problems)
    kept = [path for path in kept
            if not packaged(PurePosixPath(path.relative_to(folder).as_posix()), found)]
    total, chosen, skipped = 0, set(), []
    for path in sorted(kept, key=lambda p: _python_first(p.relative_to(folder).as_posix())):
        size = min(path.stat().st_size, MAX_FILE_BYTES)
        if total + size > cap:
            skipped.append(clean_text(path.relative_to(folder).as_posix()))
            continue
        total += size
        chosen.add(path)
    _over_cap(problems, folder, skipped, cap, zipped=False)
    files = Files()
    for path in kept:  # in the folder's order: at most `cap` bytes are ever held
        name = clean_text(path.relative_to(folder).as_posix())
        if path not in chosen:
            continue
        try:
            files.add(name, _cut(name, _head(path), problems))
        except OSError as exc:  # unreadable, or gone: this file's problem, not the class's
            problems.append(problem("intake", name, f"could not be read ({exc.strerror or exc}); "
                                     "it was ignored"))
    return files


def open_zip(source: Path | io.BytesIO) -> zipfile.ZipFile:
    """The zip, each member named as its writer meant: a name stored without the zip's UTF-8
    flag is read as cp437, yet Info-ZIP's ``zip -r`` (an export unzipped and zipped again on
    Linux) and other tools write UTF-8 there; such a name that is valid UTF-8 is read so
    (``Müller/`` stays ``Müller/``, not ``M├╝ller/``)."""
    archive = zipfile.ZipFile(source)
    for info in archive.infolist():
        if info.flag_bits & 0x800:
            continue
        try:
            info.filename = info.filename.encode("cp437").decode("utf-8")
        except UnicodeError:
            continue
    return archive


def _read_zip(path: Path, problems: list[Violation], cap: int,
              held: bytes | None = None) -> Files:
    try:
        archive = open_zip(path if held is None else io.BytesIO(held))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        problems.append(problem("zip", path.name, f"could not be opened: {exc}"))
        return Files()
    files = Files()
    total = 0
    with archive:
        listed = [(info, PurePosixPath(info.filename.replace("\\", "/")))
                  for info in archive.infolist() if not info.is_dir()]
        found = environments((name.as_posix() for _, name in listed), problems)
        entries = sorted(((info, name) for info, name in listed if not packaged(name, found)),
                         key=lambda pair: _python_first(pair[0].filename))
        skipped: list[str] = []
        if len(entries) > MAX_ZIP_ENTRIES:
            problems.append(problem("zip", path.name, "has too many files"))
            entries = entries[:MAX_ZIP_ENTRIES]
        for info, name in entries:
            if name.is_absolute() or ".." in name.parts:
                problems.append(
                    problem(
                        "zip", info.filename, "has an unsafe path (absolute or ../); it was ignored"
                    )
                )
                continue
            if IGNORED_PARTS & set(name.parts):
                continue
            if (info.external_attr >> 16) & 0o170000 == 0o120000:
                problems.append(
                    problem("symlink", info.filename, "is a symbolic link; it was ignored")
                )
                continue
            if total + info.file_size > cap:  # as its header says (never read past it)
                skipped.append(clean_text(info.filename))
                continue
            try:  # sizes in the headers may lie: never decompress more than one file's cap
                with archive.open(info) as member:
                    data = member.read(MAX_FILE_BYTES + 1)
            except (
                zipfile.BadZipFile,
                zlib.error,
                EOFError,
                OSError,
                RuntimeError,
                NotImplementedError,
                ValueError,
            ) as exc:  # damaged, encrypted, unsupported
                problems.append(
                    problem("zip", info.filename, f"could not be unpacked ({exc}); it was ignored")
                )
                continue
            total += len(data)
            if total > cap:  # the header lied about the size
                skipped.append(clean_text(info.filename))
                break
            files.add(name.as_posix(), _cut(clean_text(info.filename), data, problems),
                      _stamped(info.date_time))
    _over_cap(problems, path, skipped, cap, zipped=True)
    return files


def _read_tar(path: Path, problems: list[Violation], cap: int,
              held: bytes | None = None) -> Files:
    files = Files()
    total = scanned = 0
    skipped: list[str] = []
    try:
        archive = tarfile.open(  # noqa: SIM115 - closed below
            path if held is None else None, mode="r:*",
            fileobj=None if held is None else io.BytesIO(held))
    except TAR_ERRORS as exc:
        problems.append(problem("archive", path.name, f"could not be opened: {exc}"))
        return files
    found: set[PurePosixPath] = set()  # virtual environments met so far
    count = 0
    with archive:
        try:
            for seen, member in enumerate(archive, start=1):
                scanned += member.size
                if seen > 20 * MAX_ZIP_ENTRIES or scanned > 10 * cap:  # what is read through
                    problems.append(problem("archive", path.name, "holds too much to read "
                                             "through; the files after that were not read"))
                    break
                name = PurePosixPath(member.name.replace("\\", "/"))
                if name.name == ENVIRONMENT_MARK:
                    found |= environments([name.as_posix()], problems)
                if member.isdir() or IGNORED_PARTS & set(name.parts) or packaged(name, found):
                    continue
                count += 1
                if count > MAX_ZIP_ENTRIES:
                    problems.append(problem("archive", path.name, "has too many files; the "
                                             "files after that were not read"))
                    break
                shown = clean_text(member.name)  # tar names may hold bytes that are no UTF-8
                if name.is_absolute() or ".." in name.parts:
                    problems.append(problem("archive", shown, "has an unsafe path "
                                             "(absolute or ../); it was ignored"))
                elif member.issym() or member.islnk():
                    problems.append(problem("symlink", shown,
                                             "is a link; it was ignored"))
                elif member.isfile() and total + member.size > cap:
                    skipped.append(shown)
                elif member.isfile():
                    handle = archive.extractfile(member)
                    data = handle.read(MAX_FILE_BYTES + 1) if handle is not None else b""
                    total += len(data)
                    files.add(clean_text(name.as_posix()), _cut(shown, data, problems),
                              float(member.mtime))
        except TAR_ERRORS as exc:  # damaged or cut short: what was read before is kept
            problems.append(problem("archive", path.name, f"could not be read to its end "
                                     f"({exc}); the files before that were kept"))
    _over_cap(problems, path, skipped, cap, zipped=True)
    return files


def problem(kind: str, file: str, what: str) -> Violation:
    """A problem of the hand-in itself (kind ``kind``, titled in problems.toml) with ``file``:
    "`file` what."."""
    return Violation(rule=kind, file=file, message=f"`{file}` {what}.")
