"""`grade PATHS`: grade every submission under PATHS, one batch per assignment (the default
command)."""

from __future__ import annotations

import csv
import os
import sys
import tempfile
from datetime import datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click
from rich.markup import escape

from graders import console, gradebook
from graders.batch import BatchRequest, grade_batch
from graders.cluster_access import ClusterAccess, check_access
from graders.commands import EXIT_FAILED, EXIT_OK, register
from graders.intake import Intake, layouts
from graders.intake.grouped import batches_in
from graders.intake.people import known_ids
from graders.intake.roster import load_roster
from graders.intake.teams import load_teams
from graders.pack import project_root
from graders.report import ReportWriter
from graders.sandbox import Isolation
from graders.times import load_extensions, load_times

MAX_JOBS = 64


def default_jobs() -> int:
    """The number of CPUs, clamped to what ``--jobs`` accepts (a 128-CPU machine gets 64)."""
    return max(1, min(MAX_JOBS, os.cpu_count() or 1))


@register
@click.command("run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--assignment", "-a", help="Assignment id; detected from the files if omitted.")
@click.option("--out", type=click.Path(path_type=Path), help="Report folder [reports/<id>].")
@click.option("--fresh", is_flag=True, help="Regrade everything, even unchanged submissions.")
@click.option(
    "--require-sandbox",
    is_flag=True,
    hidden=True,
    help="Accepted for old scripts: grading always refuses to run without bubblewrap now.",
)
@click.option(
    "--due",
    type=click.DateTime(["%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%d %H:%M%z"]),
    help="Due date-time with UTC offset, for the pack's late rule.",
)
@click.option(
    "--isolation",
    type=click.Choice([i.value for i in Isolation]),
    help="Force an isolation level; `rlimits` is the only way to grade without bubblewrap.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, MAX_JOBS),
    default=None,
    show_default=f"the number of CPUs, at most {MAX_JOBS}",
    help="Grading processes to run at once.",
)
@click.option("--cluster", metavar="local:N|tls://HOST:8786",
              help="Grade on a Dask cluster: N local worker processes, or a scheduler's "
              "address (see README, Grading on a cluster).")
@click.option("--cluster-certs", type=click.Path(file_okay=False, path_type=Path),
              envvar="GRADE_CLUSTER_CERTS",
              help="The folder `grade cluster-certs` made, for --cluster tls://...")
@click.option("--insecure-cluster", is_flag=True,
              help="Accept a plain tcp:// --cluster (no TLS): anyone on its network can join.")
@click.option("--layout", type=click.Choice(sorted(layouts())),
              help="How the submissions are laid out (see `grade layouts`); detected if omitted.")
@click.option("--roster", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The LMS's gradebook CSV: names, e-mails, and a row for who did not submit.")
@click.option("--times", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="CSV `student,submitted_at` (ISO 8601 with a zone): submission times.")
@click.option("--extensions", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="CSV `student,due` (ISO 8601 with a zone): a due date of a student's own "
              "(an extension); the late rule counts from it.")
@click.option("--teams", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="CSV `student,team`: a member with no submission of their own gets their "
              "team's one submission's mark.")
@click.option("--timezone", "zone_name",
              help="Zone of the export's zone-less times (e.g. America/Toronto) "
              "[default: the pack's [course] timezone, else the due date's offset].")
@click.option("--gradebook", "gradebook_url", metavar="URL",
              help="The gradebook every run is recorded in: a PostgreSQL URL or an SQLite "
              "file [$GRADERS_GRADEBOOK, else gradebook.sqlite in the reports folder].")
@click.option("--verbose", "-v", is_flag=True,
              help="Log every stage in detail (DEBUG) to the report folder's grade.log.")
def command(
    paths: tuple[Path, ...],
    assignment: str | None,
    out: Path | None,
    fresh: bool,
    require_sandbox: bool,
    due: datetime | None,
    isolation: str | None,
    jobs: int | None,
    cluster: str | None,
    cluster_certs: Path | None,
    insecure_cluster: bool,
    layout: str | None,
    roster: Path | None,
    times: Path | None,
    extensions: Path | None,
    teams: Path | None,
    zone_name: str | None,
    gradebook_url: str | None,
    verbose: bool,
) -> None:
    """Grade every submission under PATHS: an LMS export (Moodle, Canvas, Brightspace,
    MarkUs, Gradescope; a folder or its zip) or a folder or .zip per student."""
    del require_sandbox  # the default now: see --isolation
    _out_outside(out, paths)
    people = load_roster(roster) if roster else None
    for note in people.notes if people else []:
        console.console.print(f"[yellow]Note:[/] {escape(note)}")
    instructor_times = load_times(times) if times else None
    own_due = load_extensions(extensions) if extensions else None
    team_file = load_teams(teams) if teams else None
    zone = _zone(zone_name)
    access = _cluster_access(cluster, cluster_certs, insecure_cluster, isolation)
    code = EXIT_OK
    where = gradebook.Where(gradebook_url, gradebook.reports_root(out))
    with tempfile.TemporaryDirectory(prefix="grade-intake-") as stage:
        batches = batches_in(paths, assignment, layout, Path(stage))
        everyone = [f for _, i in batches for f in i.found]
        if instructor_times is not None:
            instructor_times.check_known(known_ids(everyone))
        if own_due is not None:  # an extension may be for someone who has not handed in yet
            own_due.check_known(known_ids(everyone, people))
        for pack, intake in batches:
            target = out or project_root() / "reports" / pack.id
            request = BatchRequest(
                pack=pack, sources=intake.found, out_dir=target,
                fresh=fresh, due=due, isolation=Isolation(isolation) if isolation else None,
                jobs=jobs or default_jobs(), cluster=access, roster=people,
                times=dict(instructor_times) if instructor_times is not None else None,
                extensions=dict(own_due) if own_due is not None else None, teams=team_file,
                zone=zone, layout=intake.layout, intake_notes=intake.notes, verbose=verbose,
            )
            if not grade_one(request, intake, where):
                code = EXIT_FAILED
    term = gradebook.term_page(where) if out is None else None
    if term is not None:
        console.console.print(f"Term: {escape(str(term))}")
    sys.exit(code)


def _cluster_access(
    spec: str | None, certs: Path | None, insecure: bool, isolation: str | None
) -> ClusterAccess | None:
    """The checked cluster (refused before any intake), its warnings printed."""
    if spec is None:
        return None
    access = ClusterAccess(spec, certs, insecure)
    for warning in check_access(access, Isolation(isolation) if isolation else None):
        console.console.print(f"warning: {warning}", style="bold red", markup=False,
                              soft_wrap=True)
    return access


def _listed(folder: Path) -> set[str]:
    """The students the report folder's ``marks.csv`` lists (none where it has none)."""
    try:
        with (folder / "marks.csv").open(encoding="utf-8", newline="") as handle:
            return {row["student"] for row in csv.DictReader(handle) if row.get("student")}
    except (OSError, KeyError, csv.Error, UnicodeDecodeError):
        return set()


def _out_outside(out: Path | None, paths: tuple[Path, ...]) -> None:
    """Refuse a report folder inside a folder being graded: the next run would grade its
    pages (``students/``, ``feedback/``) as students of their own."""
    if out is None:
        return
    for path in paths:
        if path.is_dir() and out.resolve().is_relative_to(path.resolve()):
            where = "is" if out.resolve() == path.resolve() else "is inside"
            raise click.BadParameter(
                f"{out} {where} {path}, the submissions being graded: the next run would "
                "grade the reports' own folders as students. Write the reports outside it "
                f"(e.g. --out {path.resolve().parent / (path.resolve().name + '-reports')})",
                param_hint="--out")


def _zone(name: str | None) -> tzinfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise click.BadParameter(f"unknown time zone {name!r}", param_hint="--timezone") from None


def grade_one(request: BatchRequest, intake: Intake, where: gradebook.Where) -> bool:
    """Grade one batch with a progress bar and a summary; True when grading worked."""
    pack, target = request.pack, request.out_dir
    assert target is not None
    console.console.print(
        f"Grading {len(intake.found)} submission(s) of [bold]{pack.title}[/] "
        f"({intake.layout} layout)"
    )
    for note in intake.notes:
        console.console.print(f"intake: {console.printable(note)}", markup=False,
                              style="yellow")
    if (request.due is not None or request.extensions) and \
            not pack.declaration.late.percent_per_hour:
        console.console.print(f"Note: {pack.id} has no late rule ([late] in its "
                              "assignment.toml): the due dates given change no mark.",
                              markup=False, style="yellow")
    for note in gradebook.before_run(where, request):
        console.console.print(note, markup=False, style="yellow")
    listed_before = _listed(target)
    with console.progress_bar(len(intake.found), pack.id) as advance:
        request.progress = advance
        outcome = grade_batch(request)
    gone = sorted(listed_before - {result.student for result in outcome.results}, key=str.lower)
    if gone:
        console.console.print(
            f"No longer in {target / 'marks.csv'} (listed there by the last run, not graded in "
            f"this one; grade the whole class together to keep one list): "
            + console.printable(", ".join(gone)), markup=False, style="yellow")
    changes = gradebook.after_run(where, request, outcome)
    for line in gradebook.change_lines(changes, pack.id):
        console.console.print(console.printable(line), markup=False, soft_wrap=True)
    if changes is not None:
        ReportWriter(target, pack).write_index(
            outcome.results, outcome.isolation, shared=outcome.shared,
            changed=gradebook.changed_line(changes),
            moved={c.name: f"{c.before:g} → {c.after:g} ({c.why})" for c in changes})
    missing = [r.student for r in outcome.results if r.status == "missing"]
    if missing:
        console.console.print("On the roster with no submission: "
                              + console.printable(", ".join(missing)), markup=False)
    console.isolation_line(outcome.isolation)
    console.summary(outcome, f"{pack.title}: {len(outcome.results)} submission(s)", pack)
    console.class_starter(outcome.shared)
    again = (f", {outcome.remarked} of them marked again for the due date"
             if outcome.remarked else "")
    console.console.print(
        f"Reports: {escape(str(target / 'index.html'))} (reused {outcome.reused} "
        f"unchanged result(s){again}; --fresh regrades them)"
    )
    return outcome.ok
