"""Moodle: the grading worksheet (upload it with Grade and Feedback comments filled in) and
a zip of feedback folders named like the download's (``<Full name>_<id>_assignsubmission_file_``).
"""

from __future__ import annotations

from datetime import datetime

from graders.export import ExportOptions, LmsFormat, part, person, points, register, summary
from graders.pack import Pack
from graders.results import SubmissionResult

COLUMNS = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
           "Grade can be changed", "Last modified (submission)", "Last modified (grade)",
           "Feedback comments"]


def moodle_time(iso: str) -> str:
    """``Tuesday, 5 March 2024, 10:58 PM`` (Moodle's worksheet form), or ``-``."""
    if not iso:
        return "-"
    when = datetime.fromisoformat(iso)
    return f"{when:%A}, {when.day} {when:%B %Y}, {when:%I:%M %p}".replace(", 0", ", ")


@register
class MoodleFormat(LmsFormat):
    name = "moodle"
    title = "Moodle grading worksheet"
    spaces = frozenset({"moodle"})
    mark_cells = slice(4, 5)

    def header(self, pack: Pack, options: ExportOptions) -> list[list[str]]:
        return [list(COLUMNS)]

    def row(self, result: SubmissionResult, pack: Pack, options: ExportOptions) -> list[str]:
        lms_id, name, email = person(result)
        status = "No submission" if result.status == "missing" else "Submitted for grading"
        return [f"Participant {self.key(result) or lms_id}", name, email, status,
                points(result.total), points(result.max_total), "Yes",
                moodle_time(result.submitted_at), "-", summary(result)]

    def feedback_name(self, result: SubmissionResult) -> str:
        lms_id, name, _ = person(result)
        return part(f"{name}_{self.key(result) or lms_id}_assignsubmission_file_") \
            + "/feedback.html"
