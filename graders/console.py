"""What people read in the terminal: progress, the class summary, the pre-check verdict."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from graders.batch import BatchOutcome
from graders.batch import Progress as OnResult
from graders.results import SubmissionResult
from graders.sandbox import Isolation

console = Console(stderr=True, highlight=False)
out = Console(highlight=False)


def isolation_line(isolation: Isolation) -> None:
    style = "yellow" if isolation is Isolation.RLIMITS else "green"
    console.print(f"[{style}]Isolation: {isolation.value}[/] - {isolation.describe}")


@contextmanager
def progress_bar(total: int, title: str) -> Iterator[OnResult]:
    """A progress bar for long runs; yields the per-result callback."""
    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[last]}"),
    ]
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(title, total=total, last="")

        def advance(result: SubmissionResult) -> None:
            bar.update(task, advance=1, last=f"{result.student}: {result.total:g}")

        yield advance


def summary(outcome: BatchOutcome, title: str) -> None:
    table = Table(title=title, show_lines=False)
    table.add_column("student")
    table.add_column("total", justify="right")
    table.add_column("tests", justify="right")
    table.add_column("rules broken")
    table.add_column("status")
    for r in outcome.results:
        passed = sum(t.outcome == "passed" for t in r.tests)
        status = "[green]graded[/]" if r.status == "graded" else "[red]GRADER ERROR[/]"
        rules = ", ".join(sorted({v.rule for v in r.violations})) or "-"
        table.add_row(
            escape(r.student),
            f"{r.total:g} / {r.max_total:g}",
            f"{passed}/{len(r.tests)}",
            rules,
            status,
        )
    out.print(table)
    for message in outcome.grader_errors:
        console.print(f"[red]Grader error:[/] {message}")


def precheck_report(result: SubmissionResult) -> None:
    """The student's verdict: every public test and rule, and what to fix."""
    out.print(
        f"[bold]{result.assignment_title}[/]: pre-check of {result.student} "
        f"(public tests and rule checks only)"
    )
    for test in result.tests:
        mark = {"passed": "[green]PASS[/]", "failed": "[red]FAIL[/]"}.get(
            test.outcome, "[yellow]ERROR[/]"
        )
        case = f" [{test.case}]" if test.case else ""
        out.print(f"  {mark} {escape(test.name + case)}")
        if test.outcome != "passed":
            out.print("       " + test.message.replace("\n", "\n       "), markup=False)
    for v in result.violations:
        where = f"{v.file}:{v.line}" if v.line else v.file
        out.print(f"  [red]RULE[/] {escape(v.title)} {escape(f'[{v.rule}]')} at {escape(where)}")
        out.print(f"       {v.message}", markup=False)
        if v.fix:
            out.print(f"       fix: {v.fix}", markup=False)
    failed = [t for t in result.tests if t.outcome != "passed"]
    if not failed and not result.violations:
        out.print(
            "[green]All public tests pass and no rule is broken.[/] Hidden tests are run "
            "by the instructor after the deadline."
        )
    else:
        out.print(
            f"[red]{len(failed)} public test(s) failing, {len(result.violations)} rule "
            "problem(s).[/] Fix them before you upload."
        )
