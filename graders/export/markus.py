"""MarkUs: the marks CSV, a header row naming the criteria (the pack's criterion ids: name the
MarkUs rubric criteria after them), then a row per group with its marks and, last, the
deductions (late work, broken rules) as a negative number; feedback in a folder per group.
A group is the MarkUs download's folder name (for individual work, a plain folder per student
named by user name is one too), or the user name from MarkUs's student list as --roster."""

from __future__ import annotations

from graders.export import ExportOptions, LmsFormat, lms_fact, part, person, points, register
from graders.pack import Pack
from graders.results import SubmissionResult


@register
class MarkUsFormat(LmsFormat):
    name = "markus"
    title = "MarkUs marks upload"
    spaces = frozenset({"markus", "plain"})
    mark_cells = slice(1, -1)

    def key(self, result: SubmissionResult) -> str | None:
        own = super().key(result)
        return None if own is None else lms_fact(result, "group") or own

    def header(self, pack: Pack, options: ExportOptions) -> list[list[str]]:
        return [["Group", *(c.id for c in pack.declaration.criteria), "deductions"]]

    def row(self, result: SubmissionResult, pack: Pack, options: ExportOptions) -> list[str]:
        earned = {m.id: m.earned for m in result.criteria}
        group = self.key(result) or person(result)[0]
        lost = sum(d.points for d in result.deductions)
        return [group, *(points(earned.get(c.id, 0.0)) for c in pack.declaration.criteria),
                points(-lost) if lost else "0"]

    def feedback_name(self, result: SubmissionResult) -> str:
        return part(self.key(result) or person(result)[0]) + "/feedback.html"
