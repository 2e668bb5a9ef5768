"""`grade`: a thin command line; each command calls one function of the engine."""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click
from click_default_group import DefaultGroup
from rich.markup import escape

from graders import console, gradebook
from graders.batch import SETUP_COMMAND, BatchRequest, grade_batch
from graders.causes import words
from graders.checks import title_of
from graders.cluster import ClusterAccess, check_access
from graders.commands import register_all
from graders.declaration import describe_keys
from graders.errors import GraderError
from graders.golden import stale_golden, write_golden
from graders.intake import Intake, ingest, layouts
from graders.intake.roster import load_roster
from graders.pack import Pack, discover_packs, get_pack, project_root
from graders.rules import registry
from graders.rules.base import messages_for
from graders.sandbox import Isolation
from graders.sandbox.isolation import detect_isolation
from graders.submissions import detect_assignment, find_submissions
from graders.times import load_times
from graders.tools import setup_tools
from graders.verdict import is_notice, problems

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


@click.group(cls=DefaultGroup, default="run", default_if_no_args=False)
def cli() -> None:
    """Grade game-search assignments: `grade SUBMISSIONS/` marks a class."""


MAX_JOBS = 64


def default_jobs() -> int:
    """The number of CPUs, clamped to what ``--jobs`` accepts (a 128-CPU machine gets 64)."""
    return max(1, min(MAX_JOBS, os.cpu_count() or 1))


@cli.command("run")
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
@click.option("--timezone", "zone_name",
              help="Zone of the export's zone-less times (e.g. America/Toronto) "
              "[default: the pack's [course] timezone, else the due date's offset].")
@click.option("--gradebook", "gradebook_url", metavar="URL",
              help="The gradebook every run is recorded in: a PostgreSQL URL or an SQLite "
              "file [$GRADERS_GRADEBOOK, else gradebook.sqlite in the reports folder].")
def run_command(
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
    zone_name: str | None,
    gradebook_url: str | None,
) -> None:
    """Grade every submission under PATHS: an LMS export (Moodle, Canvas, Brightspace,
    MarkUs, Gradescope; a folder or its zip) or a folder or .zip per student."""
    del require_sandbox  # the default now: see --isolation
    people = load_roster(roster) if roster else None
    instructor_times = load_times(times) if times else None
    zone = _zone(zone_name)
    access = _cluster_access(cluster, cluster_certs, insecure_cluster, isolation)
    code = EXIT_OK
    where = gradebook.Where(gradebook_url, gradebook.reports_root(out))
    with tempfile.TemporaryDirectory(prefix="grade-intake-") as stage:
        batches = _batches(paths, assignment, layout, Path(stage))
        if instructor_times is not None:
            instructor_times.check_known(
                {f.id for _, i in batches for f in i.found}
                | {f.lms_id for _, i in batches for f in i.found}
            )
        for pack, intake in batches:
            target = out or project_root() / "reports" / pack.id
            request = BatchRequest(
                pack=pack, sources=intake.found, out_dir=target,
                fresh=fresh, due=due, isolation=Isolation(isolation) if isolation else None,
                jobs=jobs or default_jobs(), cluster=access, roster=people,
                times=dict(instructor_times) if instructor_times is not None else None,
                zone=zone, layout=intake.layout, intake_notes=intake.notes,
            )
            if not _grade_one(request, intake, where):
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


def _zone(name: str | None) -> tzinfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise click.BadParameter(f"unknown time zone {name!r}", param_hint="--timezone") from None


def _grade_one(request: BatchRequest, intake: Intake, where: gradebook.Where) -> bool:
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
    for note in gradebook.before_run(where, request):
        console.console.print(note, markup=False, style="yellow")
    with console.progress_bar(len(intake.found), pack.id) as advance:
        request.progress = advance
        outcome = grade_batch(request)
    for line in gradebook.change_lines(gradebook.after_run(where, request, outcome), pack.id):
        console.console.print(console.printable(line), markup=False, soft_wrap=True)
    missing = [r.student for r in outcome.results if r.status == "missing"]
    if missing:
        console.console.print("On the roster with no submission: "
                              + console.printable(", ".join(missing)), markup=False)
    console.isolation_line(outcome.isolation)
    console.summary(outcome, f"{pack.title}: {len(outcome.results)} submission(s)")
    console.class_starter(outcome.shared)
    console.console.print(
        f"Reports: {escape(str(target / 'index.html'))} (reused {outcome.reused} "
        "unchanged result(s); --fresh regrades them)"
    )
    return outcome.ok


@cli.command("check")
@click.argument("path", default=".", type=click.Path(exists=True, path_type=Path))
@click.option("--assignment", "-a", help="Assignment id; detected from the files if omitted.")
def check_command(path: Path, assignment: str | None) -> None:
    """Student pre-check: rule checks and public tests on the files in PATH."""
    pack = _pack_for([path], assignment)
    outcome = grade_batch(BatchRequest(pack=pack, sources=[path], public_only=True))
    if outcome.isolation is Isolation.RLIMITS:
        console.console.print(
            "[yellow]Note:[/] bubblewrap is not installed here, so this pre-check runs your code "
            "with resource limits only; the instructor's grading uses the sandbox."
        )
    result = outcome.results[0]
    notices = [v for v in result.violations if is_notice(pack, v)]
    console.precheck_report(result, notices)
    if not outcome.ok:
        console.console.print(
            "[red]The checker itself failed (not your fault):[/] "
            + escape("; ".join(result.grader_errors + outcome.grader_errors))
        )
        sys.exit(EXIT_USAGE)
    failed = any(t.outcome != "passed" for t in result.tests) or problems(pack, result.violations)
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


@cli.command("golden")
@click.argument("assignments", nargs=-1)
@click.option("--check", "only_check", is_flag=True, help="Only report stale golden files.")
def golden_command(assignments: tuple[str, ...], only_check: bool) -> None:
    """Regenerate golden files from the reference solutions (all assignments by default)."""
    packs = [get_pack(a) for a in assignments] or list(discover_packs().values())
    stale = []
    for pack in packs:
        paths = stale_golden(pack) if only_check else write_golden(pack)
        verb = "stale" if only_check else "written"
        for path in paths:
            console.out.print(f"{pack.id}: {verb} {path}")
        stale += paths
    if not stale:
        console.out.print("All golden files are up to date.")
    sys.exit(EXIT_FAILED if only_check and stale else EXIT_OK)


@cli.command("setup")
@click.argument("assignments", nargs=-1)
@click.option("--force", is_flag=True, help="Rebuild environments that are ready too.")
def setup_command(assignments: tuple[str, ...], force: bool) -> None:
    """Install the tools the packs run on submissions (e.g. python_ta) and each pack's
    [environment] for student code (env_<id>), each in its own environment under .tools/
    (all assignments by default)."""
    packs = [get_pack(a) for a in assignments] or list(discover_packs().values())
    for tool, done in setup_tools(packs, force):
        pins = ", ".join(tool.spec.requirements)
        console.out.print(f"{tool.name} ({pins}): {done} in {tool.home}", markup=False)
    level = detect_isolation()
    if level is Isolation.RLIMITS and not os.environ.get("GRADER_ISOLATION"):
        console.console.print(
            "[red]grade setup: bubblewrap is not usable here, and `grade` refuses to grade "
            f"without it.[/] Install it with: {SETUP_COMMAND}  (in a container, user "
            "namespaces must be allowed too); or grade with `--isolation rlimits`.",
            markup=True,
        )
        sys.exit(EXIT_USAGE)
    console.out.print(f"sandbox: {level.value} ({level.describe})", markup=False)


@cli.command("rules")
def rules_command() -> None:
    """List the rule checks a pack can declare."""
    for name in sorted(registry()):
        console.out.print(f"{name}: {messages_for(name).get('title', '')}", markup=False)


@cli.command("explain")
@click.argument("assignment", required=False)
def explain_command(assignment: str | None) -> None:
    """Document every key of assignment.toml, or, with an ASSIGNMENT id, list its criteria
    and rules with the handout sentence each one enforces."""
    lines = describe_pack(get_pack(assignment)) if assignment else describe_keys()
    for line in lines:
        console.out.print(line, markup=False, soft_wrap=True)


def describe_pack(pack: Pack) -> list[str]:
    """The pack's criteria (id, points, title), rules (name, deduction) and [environment],
    each with the handout sentence it enforces."""
    declaration = pack.declaration
    lines = [f"{pack.id}: {pack.title} ({declaration.max_points:g} points)", "criteria:"]
    for criterion in declaration.criteria:
        lines += [
            f"  {criterion.id} ({criterion.points:g} points): {criterion.title}",
            f"      handout: {_handout(criterion)}",
        ]
        if criterion.causes:
            lines.append("      charged once each: " + "; ".join(
                f"{_cause_name(kind)} -{weight:g}" for kind, weight in criterion.causes.items()))
    lines.append("rules:")
    for rule in declaration.rules:
        lines += [
            f"  {rule.name} (-{rule.deduction:g} points): {title_of(rule.name)}",
            f"      handout: {_handout(rule)}",
        ]
    environment = declaration.environment
    if environment.requirements:
        lines += [f"environment (student code may import; `grade setup {pack.id}` builds it):",
                  *(f"  course: {line}" for line in environment.course),
                  *(f"  package: {line}" for line in environment.packages),
                  f"      handout: {_handout(environment)}"]
    return lines


def _cause_name(kind: str) -> str:
    """An engine kind with its words (``graders/causes.toml``); a pack's own kind as it is."""
    said = words(kind)
    return kind if said == kind else f"{said} ({kind})"


def _handout(spec: object) -> str:
    text = " ".join(str(getattr(spec, "handout", "") or "").split())
    return text or "(no handout sentence declared)"


@cli.command("list")
def list_command() -> None:
    """List the assignments (packs) this harness knows, each with its recorded mutation
    score (`grade selfcheck ID --mutants --record`)."""
    from graders.mutation.equivalents import list_label

    for pack in discover_packs().values():
        console.out.print(f"{pack.id}: {pack.title} ({list_label(pack)})", markup=False)


def _pack_for(paths: list[Path], assignment: str | None) -> Pack:
    if assignment:
        return get_pack(assignment)
    detected = detect_assignment(paths, discover_packs())
    if detected is None:
        raise click.UsageError(
            "could not tell which assignment these files are for; "
            "pass --assignment ID (see `grade list`)"
        )
    return get_pack(detected)


def _batches(
    paths: tuple[Path, ...], assignment: str | None, layout: str | None, stage: Path
) -> list[tuple[Pack, Intake]]:
    """One batch per assignment: what every path holds, grouped by pack.

    A path is an LMS export (a folder or its zip), a class folder (a folder or zip per
    student), or a folder of per-assignment class folders named by id. Nothing found
    anywhere is "no submissions found", never a student named after the folder.
    """
    packs = {assignment: get_pack(assignment)} if assignment else discover_packs()
    grouped: dict[str, Intake] = {}
    for index, path in enumerate(paths):
        for pack_id, intake in _found_in(path, assignment, layout, packs, stage / str(index)):
            batch = grouped.setdefault(pack_id, Intake(intake.layout))
            if intake.layout not in batch.layout.split("+"):
                batch.layout += f"+{intake.layout}"
            batch.found += intake.found
            batch.notes += intake.notes
    if not any(intake.found for intake in grouped.values()):
        why = [note for intake in grouped.values() for note in intake.notes]
        raise GraderError(f"no submissions found in {', '.join(map(str, paths))}"
                          + "".join(f"; {note}" for note in why))
    return [(packs[pack_id], intake) for pack_id, intake in grouped.items() if intake.found]


def _found_in(
    path: Path, assignment: str | None, layout: str | None, packs: dict[str, Pack], stage: Path
) -> list[tuple[str, Intake]]:
    if (
        assignment is None
        and layout in (None, "plain")
        and path.is_dir()
        and detect_assignment(find_submissions(path), packs) is None
        and {p.name for p in path.iterdir()} & set(packs)
    ):
        return [(p.name, ingest(p, stage / p.name, "plain"))
                for p in sorted(path.iterdir()) if p.name in packs]
    intake = ingest(path, stage, layout)
    if not intake.found:
        return [("", intake)] if assignment is None else [(assignment, intake)]
    return [(_pack_for([f.source for f in intake.found], assignment).id, intake)]


register_all(cli)


def main(argv: list[str] | None = None) -> int:
    """Console entry point; grader and declaration errors exit 2 with a clear message, an
    interrupt 130 (every report written so far is kept, and reused by the next run)."""
    try:
        cli.main(args=argv, prog_name="grade", standalone_mode=False)
    except SystemExit as exc:
        return int(exc.code or 0)
    except (KeyboardInterrupt, click.exceptions.Abort):
        console.console.print("grade: interrupted; the reports written so far are kept")
        return EXIT_INTERRUPTED
    except click.ClickException as exc:
        exc.show()
        return EXIT_USAGE
    except GraderError as exc:
        # Not markup, not wrapped: the message names paths, which must read (and copy) whole.
        console.console.print(f"grade: {console.printable(str(exc), lines=True)}", style="red",
                              markup=False, soft_wrap=True)
        return EXIT_USAGE
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
