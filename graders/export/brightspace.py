"""Brightspace (D2L): the grades import CSV (``OrgDefinedId, Username, <item> Points Grade,
End-of-Line Indicator``, every row ending with ``#``) and a zip of feedback folders named like
the download's folders. A row needs the OrgDefinedId or user name: grade with the
Brightspace grades export as ``--roster`` to have them (the download's folder ids are not
ids the import reads). The grade item is the gradebook's own (:mod:`graders.export.columns`)."""

from __future__ import annotations

from graders.export import ExportOptions, LmsFormat, lms_fact, part, person, points, register
from graders.export.columns import choose
from graders.intake.roster import BRIGHTSPACE_COLUMN
from graders.pack import Pack
from graders.results import SubmissionResult

SUFFIX = " Points Grade"


@register
class BrightspaceFormat(LmsFormat):
    name = "brightspace"
    title = "Brightspace grades import"
    spaces = frozenset({"brightspace"})
    mark_cells = slice(2, 3)

    def key(self, result: SubmissionResult) -> str | None:
        if lms_fact(result, "roster") != "brightspace":
            return None
        return lms_fact(result, "sis_id") or lms_fact(result, "username") or None

    def column(self, pack: Pack, options: ExportOptions) -> str:
        chosen = choose(pack, options.columns, options.column, "Brightspace",
                        f"{pack.title}{SUFFIX}")
        return chosen if BRIGHTSPACE_COLUMN.fullmatch(chosen) else chosen + SUFFIX

    def header(self, pack: Pack, options: ExportOptions) -> list[list[str]]:
        return [["OrgDefinedId", "Username", options.chosen, "End-of-Line Indicator"]]

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
