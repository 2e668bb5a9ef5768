"""``overrides.toml`` as the gradebook's export and import: each entry of either that the
other lacks is copied over (appended to the file, keeping what a TA wrote by hand)."""

from __future__ import annotations

from pathlib import Path

from graders import overrides
from graders.gradebook.store import Gradebook


def sync_overrides(book: Gradebook, assignment: str, folder: Path) -> list[str]:
    """Import ``folder/overrides.toml`` into the gradebook, then append to it what only the
    gradebook holds; the file's problems (nothing is copied from an unreadable file)."""
    path = folder / overrides.FILE_NAME
    entries, problems = overrides.load(path)
    if problems and not entries:
        return problems
    book.import_overrides(assignment, entries)
    held = set(entries)
    for entry in book.overrides(assignment):
        if entry not in held:
            overrides.append(path, entry)
            held.add(entry)
    return problems
