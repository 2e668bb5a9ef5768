"""What people read in the terminal: progress, the class summary, the pre-check verdict."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from graders.consensus import SharedLines
from graders.outcomes import BatchOutcome
from graders.outcomes import Progress as OnResult
from graders.pack import Pack
from graders.report.stats import counted_tests, reasons
from graders.results import SubmissionResult, ViolationRecord
from graders.sandbox import Isolation
from graders.verdict import lists_kinds, problems

console = Console(stderr=True, highlight=False)
out = Console(highlight=False)
# Control characters (C0, DEL, C1: terminal escapes, bells, line breaks) and the bidi controls
# that reorder what a terminal shows (U+202E makes `gnp.exe` read `exe.png`).
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                         "\u202a-\u202e\u2066-\u2069]")


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` safe for a terminal: every control character and bidi control shown escaped
    (``\\x1b``, ``\\u202e``), so a student's name never moves the cursor, clears the screen
    or sets the title. ``lines=True`` keeps line breaks and tabs (a multi-line message)."""

    def shown(match: re.Match[str]) -> str:
        char = match.group()
        if lines and char in "\n\t":
            return char
        return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"

    return UNPRINTABLE.sub(shown, text)


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
            bar.update(task, advance=1, last=escape(f"{printable(result.student)}: "
                                                    f"{result.total:g}"))

        yield advance


def summary(outcome: BatchOutcome, title: str, pack: Pack) -> None:
    """The class summary: a table on a terminal; plain CSV lines (one per student, never
    wrapped or cut) when the output goes to a file or a pipe. Its tests are those the
    reports count: run, and worth points."""
    rows = [[printable(cell) for cell in _row(r, pack)] for r in outcome.results]
    if out.is_terminal:
        table = Table(title=title, show_lines=False)
        table.add_column("student", overflow="fold", ratio=2)  # folded, never cut
        table.add_column("total", justify="right", no_wrap=True, min_width=9)
        table.add_column("tests", justify="right", no_wrap=True, min_width=5)
        table.add_column("why", ratio=1, overflow="fold")
        table.add_column("rules broken", ratio=1, overflow="fold")
        table.add_column("status", overflow="fold", min_width=6)
        for row in rows:
            status = {"graded": "[green]graded[/]", "GRADER ERROR": "[red]GRADER ERROR[/]"}.get(
                row[-1], escape(row[-1]))
            table.add_row(*map(escape, row[:-1]), status)
        out.print(table)
    else:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["student", "total", "tests", "why", "rules broken", "status"])
        writer.writerows(rows)
        out.print(buffer.getvalue().rstrip("\n"), markup=False, highlight=False, soft_wrap=True)
    for message in outcome.grader_errors:
        console.print(f"[red]Grader error:[/] {escape(printable(message, lines=True))}")


def _row(r: SubmissionResult, pack: Pack) -> list[str]:
    passed, counted = counted_tests(pack, r)
    status = {"graded": "graded", "missing": "no submission"}.get(r.status, "GRADER ERROR")
    if r.automatic_total is not None:
        status += f" (overridden; automatic {r.automatic_total:g})"
    return [
        r.student,
        f"{r.total:g} / {r.max_total:g}",
        f"{passed}/{counted}",
        ", ".join(reasons(r)) or "-",
        ", ".join(sorted({v.rule for v in problems(pack, r.violations)})) or "-",
        status,
    ]


def precheck_report(result: SubmissionResult, notices: list[ViolationRecord]) -> None:
    """The student's verdict: every public test and rule, and what to fix; a 0-point notice
    (``notices``) is shown as a NOTE and fails nothing. (The kit's pre-check also prints the
    public part's points, which it reads from its manifest: a checkout could only count the
    hidden cases by reading hidden tests.)"""
    out.print(
        f"[bold]{result.assignment_title}[/]: pre-check of {result.student} "
        f"(public tests and rule checks only)"
    )
    for test in result.tests:
        mark = {"passed": "[green]PASS[/]", "failed": "[red]FAIL[/]"}.get(
            test.outcome, "[yellow]ERROR[/]"
        )
        listed = lists_kinds(test)  # full marks; the kinds it lists are not counted
        if listed:
            mark = "[yellow]NOTE[/] (0 points: listed, not counted)"
        case = f" [{test.case}]" if test.case else ""
        out.print(f"  {mark} {escape(test.name + case)}")
        if test.outcome != "passed" or listed:
            out.print("       " + test.message.replace("\n", "\n       "), markup=False)
    for v in result.violations:
        where = f"{v.file}:{v.line}" if v.line else v.file
        mark = "[yellow]NOTE[/] (0 points)" if v in notices else "[red]RULE[/]"
        out.print(f"  {mark} {escape(v.title)} {escape(f'[{v.rule}]')} at {escape(where)}")
        out.print(f"       {v.message}", markup=False)
        if v.fix:
            out.print(f"       fix: {v.fix}", markup=False)
    failed = [t for t in result.tests if t.outcome != "passed"]
    problems = [v for v in result.violations if v not in notices]
    if not failed and not problems:
        out.print(
            "[green]All public tests pass and no rule is broken.[/] Hidden tests are run "
            "by the instructor after the deadline."
        )
    else:
        out.print(
            f"[red]{len(failed)} public test(s) failing, {len(problems)} rule "
            "problem(s).[/] Fix them before you upload."
        )


def class_starter(shared: Sequence[SharedLines]) -> None:
    """Tell the instructor which lines most of the class shares that no bundled starter has."""
    for found in shared:
        console.print(
            f"Class starter: {len(found.lines)} line(s) of {found.file} are in at least "
            f"{found.needed} of {found.copies} copies and in no bundled starter or reference; "
            "graded as starter lines (list the real starter under [submission] "
            "starter_versions):", markup=False, style="yellow", soft_wrap=True)
        for line in found.lines:
            console.print(f"    {line}", markup=False, highlight=False, soft_wrap=True)
