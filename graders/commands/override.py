"""`grade override ID STUDENT --criterion C --points P --comment "..." --by NAME`: a TA's mark,
recorded in the gradebook (shared by every TA when it is a PostgreSQL server), exported to
``reports/<id>/overrides.toml`` (the audit trail) and shown at once in every report."""

from __future__ import annotations

import difflib
import json
from collections import Counter
from pathlib import Path

import click

from graders import console, gradebook, overrides
from graders.commands import register
from graders.pack import get_pack, project_root
from graders.report import ReportWriter
from graders.results import SubmissionResult
from graders.sandbox import Isolation


@register
@click.command("override")
@click.argument("assignment")
@click.argument("student")  # the id reported under, the LMS id, or the name
@click.option("--criterion", "-c", required=True,
              help=f"Criterion id (see `grade explain ID`), or `{overrides.TOTAL}`.")
@click.option("--points", "-p", required=True, type=float, help="The criterion's (or total's) "
              "new mark, between 0 and its points.")
@click.option("--comment", "-m", required=True, help="Why: shown to whoever reads the report.")
@click.option("--by", "by", required=True, help="Who makes the change (name or initials).")
@click.option("--out", type=click.Path(path_type=Path), help="Report folder [reports/<id>].")
@click.option("--gradebook", "url", metavar="URL", help="The gradebook the override is "
              "recorded in [$GRADERS_GRADEBOOK, else the one `grade --out` used].")
def command(assignment: str, student: str, criterion: str, points: float, comment: str, by: str,
            out: Path | None, url: str | None) -> None:
    """Set STUDENT's CRITERION to POINTS with a comment; the change is kept by every regrade
    (and flagged if the student's code changes), and the reports are rewritten now. STUDENT
    is the id the report shows, the LMS id, or the student's name (refused when ambiguous)."""
    pack = get_pack(assignment)
    folder = out or project_root() / "reports" / pack.id
    results = load_results(folder)
    result = find_student(results, student)
    if not comment.strip() or not by.strip():
        raise click.UsageError("--comment and --by must not be empty")
    entry = overrides.Override(
        student=result.student, criterion=criterion.strip(), points=points,
        comment=comment.strip(), by=by.strip(), at=overrides.now(),
        code=overrides.code_digest(result.files), lms_id=result.lms_id,
    )
    why = overrides.check(entry, result)
    if why:
        raise click.UsageError(why)
    where = gradebook.Where(url, gradebook.reports_root(out))
    record(entry, result, pack.id, folder, where.open())
    ReportWriter(folder, pack).write_index(results, isolation_of(results))
    if out is None:  # the term page beside it shows the new mark too
        gradebook.term_page(where)
    console.out.print(
        f"{result.student}: {entry.criterion} set to {points:g} by {entry.by}; "
        f"total now {result.total:g} (automatic {result.automatic_total or result.total:g}). "
        f"Recorded in {folder / overrides.FILE_NAME}", markup=False)


def record(entry: overrides.Override, result: SubmissionResult, assignment: str, folder: Path,
           book: gradebook.Gradebook) -> None:
    """Record ``entry`` in the gradebook (with the mark it replaces), then bring the folder's
    overrides file up to date with every TA's overrides."""
    if entry.criterion == overrides.TOTAL:
        was = result.total if result.automatic_total is None else result.automatic_total
    else:
        mark = next(m for m in result.criteria if m.id == entry.criterion)
        was = mark.earned if mark.automatic is None else mark.automatic
    try:
        gradebook.sync_overrides(book, assignment, folder)
        book.add_override(assignment, entry, was)
        gradebook.sync_overrides(book, assignment, folder)
    finally:
        book.close()


def load_results(folder: Path) -> list[SubmissionResult]:
    """The batch's results as the last run wrote them (``results.json``)."""
    path = folder / "results.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise click.UsageError(f"no {path}: grade the submissions first (or pass --out)") from None
    except ValueError as exc:
        raise click.UsageError(f"{path} is not readable JSON: {exc}") from None
    return [SubmissionResult.from_dict(item) for item in data]


def find_student(results: list[SubmissionResult], name: str) -> SubmissionResult:
    """The result of ``name``: the id it is reported under (or its page's slug), its LMS id
    (or the roster's), or the student's name (accents and case folded, in any word order),
    tried in that order. A usage error when it names nobody (with the closest ids) or several
    (listing them)."""
    from graders.intake.roster import name_key
    from graders.submissions import slugify

    wanted = name.strip()
    tries = (
        lambda r: r.student == wanted,
        lambda r: r.student.lower() == wanted.lower() or slugify(r.student) == wanted,
        lambda r: wanted in {r.lms_id, *(str(r.lms.get(k, "")) for k in _IDS)} - {""},
        lambda r: bool(name_key(wanted)) and name_key(r.display_name) == name_key(wanted),
    )
    for match in tries:
        found = [result for result in results if match(result)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise click.UsageError(f"{name!r} names {len(found)} students in this batch ("
                                   f"{', '.join(repr(r.student) for r in found)}): give the "
                                   "one you mean by the id it is reported under")
    close = difflib.get_close_matches(name, [r.student for r in results], n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    raise click.UsageError(f"no student {name!r} in this batch{hint}")


_IDS = ("roster_id", "sis_id", "username", "group")


def isolation_of(results: list[SubmissionResult]) -> Isolation:
    """The isolation most of the batch was graded under (the index names it)."""
    values = Counter(r.isolation for r in results if r.isolation)
    for value, _ in values.most_common():
        try:
            return Isolation(value)
        except ValueError:
            continue
    return Isolation.RLIMITS
