"""Gradescope's "Export submissions": ``submission_<id>/`` folders and their metadata.

``submission_metadata.yml`` maps each ``submission_<id>`` to its ``:submitters:`` (``:name:``,
``:sid:``, ``:email:``) and ``:created_at:``, the submission time (with its zone). The first
submitter's SID is the LMS id; each other member of a group gets a row of their own with the
group's mark (:func:`graders.intake.teams.group_copies`). A folder the
metadata does not name is graded under its folder name, and the report says so.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from graders.intake import register
from graders.intake.base import Found, Intake, Layout, entries, named, stray

METADATA = "submission_metadata.yml"
FOLDER = re.compile(r"submission_\d+")
FRACTION = re.compile(r"(\.\d{1,6})\d*")


def parse_created(text: str) -> datetime | None:
    """``2024-03-05 23:10:00.000000000 -05:00`` (Ruby's form) or ISO 8601."""
    cleaned = FRACTION.sub(r"\1", text.strip()).replace(" -", "-").replace(" +", "+")
    try:
        when = datetime.fromisoformat(cleaned.replace(" ", "T", 1).replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def _key(entry: dict[str, Any], name: str) -> Any:
    return entry.get(f":{name}", entry.get(name))


@register
class Gradescope(Layout):
    name = "gradescope"
    title = "Gradescope (export submissions)"
    example = "submission_123456/program.py, with submission_metadata.yml beside it"
    priority = 5

    def detect(self, root: Path) -> bool:
        return (root / METADATA).is_file()

    def read(self, root: Path, stage: Path) -> Intake:
        intake = Intake(self.name)
        try:
            metadata = yaml.load((root / METADATA).read_text(encoding="utf-8"),
                                 Loader=yaml.BaseLoader) or {}
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            intake.notes.append(f"`{METADATA}` could not be read ({exc}); no names or times")
            metadata = {}
        for path in entries(root):
            if path.name == METADATA:
                continue
            if not (path.is_dir() and FOLDER.fullmatch(path.name)):
                intake.notes.append(stray(path, "Gradescope"))
                continue
            intake.found.append(self._found(path, metadata.get(path.name)))
        return intake

    def _found(self, path: Path, entry: Any) -> Found:
        if not isinstance(entry, dict):
            return Found(id=path.name, source=path, lms_id=path.name, display_name=path.name,
                         notes=[f"`{METADATA}` does not name `{path.name}`: graded under its "
                                "folder name"])
        people = [p for p in _key(entry, "submitters") or [] if isinstance(p, dict)]
        sids = [str(_key(p, "sid") or "") for p in people]
        names = [str(_key(p, "name") or "") for p in people]
        emails = [str(_key(p, "email") or "") for p in people]
        lms_id = sids[0] if sids and sids[0] else path.name
        display = ", ".join(n for n in names if n) or path.name
        created = str(_key(entry, "created_at") or "")
        when = parse_created(created) if created else None
        found = Found(id=named(display, lms_id), source=path, lms_id=lms_id,
                      display_name=display, email=emails[0] if emails else "",
                      submitted_at=when,
                      lms={"submission": path.name.removeprefix("submission_"),
                           "members": ";".join(sids), "emails": ";".join(emails),
                           "names": json.dumps(names, ensure_ascii=False)})
        if created and when is None:
            found.notes.append(f"the time `{created}` in `{METADATA}` could not be read")
        return found
