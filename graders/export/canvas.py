"""Canvas: the gradebook import CSV (``Student, ID, SIS User ID, SIS Login ID, Section``, then
``<Assignment name> (<assignment id>)``; a ``Points Possible`` row second; rows matched by
``ID``), and feedback files named like the download's (``<name>_<user id>_<submission
id>_feedback.html``) to attach as submission comments. The column is the gradebook's own
(:mod:`graders.export.columns`): a header Canvas does not know would make a new column."""

from __future__ import annotations

from graders.export import ExportOptions, LmsFormat, lms_fact, part, person, points, register
from graders.export.columns import choose
from graders.pack import Pack
from graders.results import SubmissionResult

COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


@register
class CanvasFormat(LmsFormat):
    name = "canvas"
    title = "Canvas gradebook"
    spaces = frozenset({"canvas"})
    mark_cells = slice(5, 6)

    def column(self, pack: Pack, options: ExportOptions) -> str:
        return choose(pack, options.columns, options.column, "Canvas",
                      f"{pack.title} (123456)")

    def header(self, pack: Pack, options: ExportOptions) -> list[list[str]]:
        possible = ["    Points Possible", "", "", "", "", points(pack.declaration.max_points)]
        return [[*COLUMNS, options.chosen], possible]

    def row(self, result: SubmissionResult, pack: Pack, options: ExportOptions) -> list[str]:
        lms_id, name, _ = person(result)
        return [name, self.key(result) or lms_id, lms_fact(result, "sis_id"),
                lms_fact(result, "username"), lms_fact(result, "section"), points(result.total)]

    def feedback_name(self, result: SubmissionResult) -> str:
        lms_id, name, _ = person(result)
        letters = "".join(c for c in name.lower() if c.isalpha())
        return part(lms_fact(result, "ref") or f"{letters}_{lms_id}") + "_feedback.html"
