"""The terminal summary: a table on a terminal, plain CSV lines when piped (never cut names)."""

from __future__ import annotations

import csv
import io

from rich.console import Console

from graders import console
from graders.outcomes import BatchOutcome
from graders.pack import get_pack
from graders.results import SubmissionResult, TestOutcome
from graders.sandbox import Isolation

ALTNIM = get_pack("altnim")
LONG = "Ng_Ana_12348_assignsubmission_file_and_then_a_really_long_tail, with a comma"


def outcome() -> BatchOutcome:
    timed_out = TestOutcome(name="test_minimax_matches_reference", case="", outcome="failed",
                            public=False, message="stopped",
                            details={"kind": "timeout", "seconds": 5})
    # in no criterion: the reports leave it out of their counts, and so does the summary
    aside = TestOutcome(name="test_notes", case="", outcome="passed", public=True)
    return BatchOutcome(results=[
        SubmissionResult(student=LONG, assignment="altnim", assignment_title="altNim",
                         status="graded", isolation="bubblewrap", total=15.0, max_total=100.0,
                         tests=[timed_out, aside], automatic_total=10.0),
        SubmissionResult(student="[bold]bob[/]", assignment="altnim", assignment_title="altNim",
                         status="grader-error", isolation="bubblewrap", max_total=100.0),
    ], isolation=Isolation.BUBBLEWRAP)


def test_piped_output_is_one_csv_line_per_student_whatever_the_width(monkeypatch, capsys):
    monkeypatch.setattr(console, "out", Console(highlight=False, width=40))  # not a terminal
    console.summary(outcome(), "altNim", ALTNIM)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    assert rows == [
        ["student", "total", "tests", "why", "rules broken", "status"],
        [LONG, "15 / 100", "0/1", "timeout", "-", "graded (overridden; automatic 10)"],
        ["[bold]bob[/]", "0 / 100", "0/0", "grader error", "-", "GRADER ERROR"],
    ]


def test_on_a_terminal_a_long_name_is_folded_never_cut():
    screen = Console(width=80, force_terminal=True, color_system=None, record=True,
                     file=io.StringIO())
    original, console.out = console.out, screen
    try:
        console.summary(outcome(), "altNim", ALTNIM)
    finally:
        console.out = original
    text = screen.export_text()
    cells = "".join(line.split("│")[1].strip() for line in text.splitlines()
                    if line.startswith("│"))
    assert LONG.replace(" ", "") in cells.replace(" ", "")
    assert "…" not in text and "[bold]bob[/]" in text
