"""What `grade PATHS` grades: every path's submissions, grouped into one batch per assignment."""

from __future__ import annotations

from pathlib import Path

from graders.errors import GraderError
from graders.intake import Intake, ingest
from graders.pack import Pack, discover_packs, get_pack
from graders.submissions import detect_assignment, find_submissions


def pack_for(paths: list[Path], assignment: str | None) -> Pack:
    """The pack ``assignment``, else the one the files at ``paths`` are for."""
    if assignment:
        return get_pack(assignment)
    detected = detect_assignment(paths, discover_packs())
    if detected is None:
        raise GraderError("could not tell which assignment these files are for; "
                          "pass --assignment ID (see `grade list`)")
    return get_pack(detected)


def batches_in(
    paths: tuple[Path, ...], assignment: str | None, layout: str | None, stage: Path
) -> list[tuple[Pack, Intake]]:
    """One batch per assignment: what every path holds, grouped by pack.

    A path is an LMS export (a folder or its zip), a class folder (a folder or zip per
    student), or a folder of per-assignment class folders named by id. Nothing found
    anywhere is "no submissions found", never a student named after the folder.
    """
    packs = {assignment: get_pack(assignment)} if assignment else discover_packs()
    grouped: dict[str, Intake] = {}
    for index, path in enumerate(paths):
        for pack_id, intake in _found_in(path, assignment, layout, packs, stage / str(index)):
            batch = grouped.setdefault(pack_id, Intake(intake.layout))
            if intake.layout not in batch.layout.split("+"):
                batch.layout += f"+{intake.layout}"
            batch.found += intake.found
            batch.notes += intake.notes
    if not any(intake.found for intake in grouped.values()):
        why = [note for intake in grouped.values() for note in intake.notes]
        raise GraderError(f"no submissions found in {', '.join(map(str, paths))}"
                          + "".join(f"; {note}" for note in why))
    return [(packs[pack_id], intake) for pack_id, intake in grouped.items() if intake.found]


def _found_in(
    path: Path, assignment: str | None, layout: str | None, packs: dict[str, Pack], stage: Path
) -> list[tuple[str, Intake]]:
    if (
        assignment is None
        and layout in (None, "plain")
        and path.is_dir()
        and detect_assignment(find_submissions(path), packs) is None
        and {p.name for p in path.iterdir()} & set(packs)
    ):
        return [(p.name, ingest(p, stage / p.name, "plain"))
                for p in sorted(path.iterdir()) if p.name in packs]
    intake = ingest(path, stage, layout)
    if not intake.found:
        return [("", intake)] if assignment is None else [(assignment, intake)]
    return [(pack_for([f.source for f in intake.found], assignment).id, intake)]
