"""Brightspace (D2L): the grades import CSV (``OrgDefinedId, Username, <item> Points Grade,
End-of-Line Indicator``, every row ending with ``#``) and a zip of feedback folders named like
the download's folders. A row needs the OrgDefinedId or user name: grade with the
Brightspace grades export as ``--roster`` to have them."""

from __future__ import annotations

from graders.export import ExportOptions, LmsFormat, lms_fact, part, person, points
from graders.packs import Pack
from graders.results import SubmissionResult


class BrightspaceFormat(LmsFormat):
    name = "brightspace"
    title = "Brightspace grades import"

    def header(self, pack: Pack, options: ExportOptions) -> list[list[str]]:
        item = options.column or pack.title
        return [["OrgDefinedId", "Username", f"{item} Points Grade", "End-of-Line Indicator"]]

    def row(self, result: SubmissionResult, pack: Pack,
            options: ExportOptions) -> list[str] | None:
        org, user = lms_fact(result, "sis_id"), lms_fact(result, "username")
        if not (org or user):
            options.notes.append(f"{result.student}: no OrgDefinedId or user name (grade with "
                                 "the Brightspace grades export as --roster); row left out")
            return None
        return [f"#{org}" if org else "", f"#{user}" if user else "", points(result.total), "#"]

    def feedback_name(self, result: SubmissionResult) -> str:
        lms_id, name, _ = person(result)
        return part(lms_fact(result, "ref") or f"{lms_id} - {name}") + "/feedback.html"
