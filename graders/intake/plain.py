"""Today's layout: a folder or an archive (``.zip``, a tar, ...) per student, named after the
student. The class itself may be a folder or a zip of those folders (see
:func:`graders.intake.ingest`)."""

from __future__ import annotations

from pathlib import Path

from graders.handin import archive_stem
from graders.intake import register
from graders.intake.base import NOISE, Found, Intake, Layout, entries, stray
from graders.submissions import student_id


def single(source: Path) -> Found:
    """One student's folder, zip or file, named after it."""
    name = student_id(source)
    return Found(id=name, source=source, lms_id=name, display_name=name)


def folders_and_zips(root: Path, layout: str) -> Intake:
    """Each folder or zip under ``root`` is one submission; loose files are noted. A folder
    holding files of code but no sub-folder or zip is itself one submission; a folder with no
    Python file is no submission (never a student named after the folder)."""
    inside = entries(root)
    units = [p for p in inside if p.is_dir() or archive_stem(p.name) is not None]
    intake = Intake(layout)
    if not units:
        if any(_real_file(p, root) and p.suffix.lower() == ".py" for p in root.rglob("*")):
            intake.found.append(single(root))
        elif any(_real_file(p, root) for p in root.rglob("*")):
            intake.notes.append(f"`{root.name}` holds no Python file: nothing in it could be "
                                "a submission")
        return intake
    intake.found = [single(unit) for unit in units]
    intake.notes = [stray(p, "folder-or-zip-per-student") for p in inside if p not in units]
    return intake


def _real_file(path: Path, root: Path) -> bool:
    """A file someone handed in: not OS or editor noise, not hidden."""
    parts = path.relative_to(root).parts
    return path.is_file() and not (NOISE & set(parts)) and not any(
        part.startswith(".") for part in parts
    )


@register
class Plain(Layout):
    name = "plain"
    title = "a folder or archive (zip, tar) per student"
    example = "submissions/jdoe/program.py (or submissions/jdoe.zip; or submissions.zip)"
    priority = 99

    def detect(self, root: Path) -> bool:
        return True

    def read(self, root: Path, stage: Path) -> Intake:
        return folders_and_zips(root, self.name)

