"""MarkUs: a folder per group, named after the group (for individual work, the user name); the
download as a folder or as its zip."""

from __future__ import annotations

import re
from pathlib import Path

from graders.intake import register
from graders.intake.base import Intake, Layout, entries
from graders.intake.plain import folders_and_zips

GROUP = re.compile(r"group_\d+")


@register
class MarkUs(Layout):
    name = "markus"
    title = "MarkUs (a folder per group)"
    example = ("group_0001/program.py, as a folder or a zip (individual work: doejane1/program.py; "
               "--layout markus)")
    priority = 60

    def detect(self, root: Path) -> bool:
        folders = [p for p in entries(root) if p.is_dir()]
        return bool(folders) and all(GROUP.fullmatch(p.name) for p in folders)

    def read(self, root: Path, stage: Path) -> Intake:
        intake = folders_and_zips(root, self.name)
        for found in intake.found:
            found.lms["group"] = found.id
        return intake
