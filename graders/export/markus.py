"""MarkUs: the marks CSV, a header row naming the criteria (the pack's criterion ids: name the
MarkUs rubric criteria after them), then a row per group with its marks and, last, the
deductions (late work, broken rules) as a negative number; feedback in a folder per group."""

from __future__ import annotations

from graders.export import ExportOptions, LmsFormat, lms_fact, part, person, points
from graders.packs import Pack
from graders.results import SubmissionResult


class MarkUsFormat(LmsFormat):
    name = "markus"
    title = "MarkUs marks upload"

    def header(self, pack: Pack, options: ExportOptions) -> list[list[str]]:
        return [["Group", *(c.id for c in pack.declaration.criteria), "deductions"]]

    def row(self, result: SubmissionResult, pack: Pack, options: ExportOptions) -> list[str]:
        earned = {m.id: m.earned for m in result.criteria}
        group = lms_fact(result, "group") or person(result)[0]
        lost = sum(d.points for d in result.deductions)
        return [group, *(points(earned.get(c.id, 0.0)) for c in pack.declaration.criteria),
                points(-lost) if lost else "0"]

    def feedback_name(self, result: SubmissionResult) -> str:
        return part(lms_fact(result, "group") or person(result)[0]) + "/feedback.html"
