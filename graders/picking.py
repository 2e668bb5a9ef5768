"""Which handed-in file is graded as each file the assignment names.

The file of that name nearest the top (of copies as near, the one the student's archives
record as changed last); else a near miss of the name (case, extension, an LMS or OS copy
suffix), with a wrong-file-name problem; else, for a class the pack pins, the one other module
that holds it; where the handout names no file, the student's program (a near name first, else
the file reading ``sys.argv``). Every choice that is not the exact name is said in ``problems``.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from graders.extras import find_program
from graders.handin import Files, archive_stem, problem
from graders.pack import Pack
from graders.rules.base import Violation
from graders.sandbox.harness_kit import class_homes
from graders.starter import is_starter_copy


def kit_files(pack: Pack) -> list[str]:
    """Names of the starter kit's own files: a student's copy of one is never a helper."""
    folder = pack.templates_dir
    return [path.name for path in folder.iterdir() if path.is_file()] if folder.is_dir() else []


def pick(
    name: str, raw: Files, problems: list[Violation], *, required: bool, pack: Pack
) -> str | None:
    """The path of submitted file ``name``, searching sub-folders and near-miss names; where
    the handout names no file (``entry_program``), the student's program. Of two copies, the
    one nearest the top; of two as near, the one changed last (``v2.zip`` over ``v1.zip``)."""
    by_base: dict[str, list[str]] = {}
    for path in raw:
        by_base.setdefault(PurePosixPath(path).name, []).append(path)
    if name in by_base:
        mine = [path for path in by_base[name] if not _is_starter(pack, name, raw[path])]
        chosen = _nearest_newest(mine or by_base[name], raw)  # a changed copy over the starter
        work = None if mine else _work_beside_starter(name, by_base, raw, pack)
        if work is not None:
            starter = f"the `{chosen}` beside it is the starter, unchanged"
            if name == pack.declaration.submission.entry_program:  # the handout names no file
                problems.append(problem("program-file", work,
                                        f"was graded as the program (`{name}`): {starter}"))
            else:
                problems.append(problem(
                    "file-name", work, f"was graded as `{name}`: {starter}; the assignment "
                    "asks for your work under exactly that name"))
            return work
        others = sorted(path for path in by_base[name] if raw[path] != raw[chosen])
        if others:  # two versions handed in (a zip beside the file, v1/ and v2/): say which
            listed = ", ".join(f"`{path}`" for path in others[:5])
            problems.append(problem(
                "intake", chosen, f"was graded as `{name}`, the copy nearest the top (of those "
                f"as near, the one changed last where the archives record it, else the first "
                f"by name); other copies with different contents were handed in too ({listed}) "
                "and were not graded"))
        return chosen
    candidates = [path for base, paths in by_base.items() if _near(base, name) for path in paths]
    if name == pack.declaration.submission.entry_program:  # the handout names no file
        return _pick_program(name, raw, problems, pack, near=candidates)
    if len(candidates) == 1:
        found = candidates[0]
        problems.append(
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
        problems.append(problem(
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
    problems.append(problem("missing-file", name, reason))
    return None


def _work_beside_starter(name: str, by_base: dict[str, list[str]], raw: Files,
                         pack: Pack) -> str | None:
    """The one near-named file that is not the starter, where every file of the exact name is
    the starter unchanged: a student who works in the kit's folder and saves their work as
    ``game (1).py`` hands in the untouched ``game.py`` beside it."""
    work = [path for base, paths in by_base.items() if _near(base, name) for path in paths
            if _source_text(path, raw[path]) and not _is_starter(pack, name, raw[path])]
    if len(work) == 1:
        return work[0]
    if work or name != pack.declaration.submission.entry_program:
        return None
    # the handout names no file: the program of another name that reads its command line
    others = {path: data for path, data in raw.items() if path not in by_base[name]}
    return find_program(others, pack.declaration.locked.files)[0]


def _source_text(path: str, data: bytes) -> bool:
    """Whether a near-named file can be the student's source: a text file (``game.txt``, a
    notebook), not slides or a document (``Game.pdf``) that happen to share the name."""
    suffix = PurePosixPath(path).suffix.lower()
    return suffix in ("", ".py", ".txt", ".ipynb", ".py3", ".template") and b"\0" not in data


def _is_starter(pack: Pack, name: str, data: bytes) -> bool:
    """Whether handed-in ``data`` is a starter version of ``name``, unchanged."""
    return is_starter_copy(pack, name, data.decode("utf-8-sig", errors="replace"))


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
    reserved = {*pack.submitted_files, *pack.declaration.locked.files, *kit_files(pack)}
    sources = {path: data.decode("utf-8-sig", errors="replace") for path, data in raw.items()
               if path.endswith(".py") and PurePosixPath(path).name not in reserved}
    homes = class_homes(sources, pinned.name, pinned.base)
    return homes[0] if len(homes) == 1 else None


def _pick_program(
    name: str, raw: dict[str, bytes], problems: list[Violation], pack: Pack, near: list[str]
) -> str | None:
    """The student's program where the handout names no file: one file named like the graded
    name (a case variant, whatever it reads its arguments with), else the one reading ``sys.argv``
    (:func:`~graders.extras.find_program`); either way a program-file notice, never a wrong
    file name."""
    chosen, rest = find_program(raw, pack.declaration.locked.files)
    if len(near) == 1:
        chosen, rest = near[0], [path for path in [chosen, *rest] if path not in (None, near[0])]
    if chosen is None:
        problems.append(problem(
            "missing-file", name,
            "is missing: no file of yours reads `sys.argv` (hand in the program that does)",
        ))
        return None
    also = f"; other programs found: {', '.join(f'`{p}`' for p in rest)}" if rest else ""
    problems.append(problem(
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
