"""`grade check [PATH]`: the student pre-check from a checkout (rule checks, public tests)."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape

from graders import console
from graders.batch import BatchRequest, grade_batch
from graders.commands import EXIT_FAILED, EXIT_OK, EXIT_USAGE, register
from graders.intake.grouped import pack_for
from graders.sandbox import Isolation
from graders.verdict import failing, is_notice, problems


@register
@click.command("check")
@click.argument("path", default=".", type=click.Path(exists=True, path_type=Path))
@click.option("--assignment", "-a", help="Assignment id; detected from the files if omitted.")
def command(path: Path, assignment: str | None) -> None:
    """Student pre-check: rule checks and public tests on the files in PATH."""
    pack = pack_for([path], assignment)
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
    failed = failing(pack, result.tests) or problems(pack, result.violations)
    sys.exit(EXIT_FAILED if failed else EXIT_OK)
