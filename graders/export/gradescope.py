"""Gradescope: a score upload CSV (``Name, SID, Email, Total Score, Max Points``; assumed, as
Gradescope matches uploaded scores by SID or e-mail). A course that grades ON Gradescope uses
the autograder bundle instead (``grade gradescope ID``). Feedback: a folder per SID."""

from __future__ import annotations

from graders.export import ExportOptions, LmsFormat, part, person, points, register
from graders.pack import Pack
from graders.results import SubmissionResult


@register
class GradescopeFormat(LmsFormat):
    name = "gradescope"
    title = "Gradescope score upload"
    spaces = frozenset({"gradescope"})
    mark_cells = slice(3, 4)

    def header(self, pack: Pack, options: ExportOptions) -> list[list[str]]:
        return [["Name", "SID", "Email", "Total Score", "Max Points"]]

    def row(self, result: SubmissionResult, pack: Pack, options: ExportOptions) -> list[str]:
        lms_id, name, email = person(result)
        return [name, self.key(result) or lms_id, email, points(result.total),
                points(result.max_total)]

    def feedback_name(self, result: SubmissionResult) -> str:
        return part(self.key(result) or person(result)[0]) + "/feedback.html"
