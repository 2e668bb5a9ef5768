"""python_ta, the style checker a pack declares as a tool (parent side): run it, read it.

A pack declares the tool (``[[tools]] name = "python_ta"``, exact pins) and its config file
(``[python_ta]``, see :mod:`graders.style.assessed`); :mod:`graders.style.pyta_runner`
runs python_ta on the files, with that config, in the tool's own environment inside the
sandbox: one run per student for all their files, each file checked once, or one run for a
whole session (:func:`run_chunk`). This module parses a run's JSON lines and judges them:

- each message has a kind (its id and symbol), which a proportional style criterion counts
  once however many lines carry it; each also falls in a section of python_ta's own report
  (code errors and forbidden usage: E and F; style and convention: C, R and W);
- a message the unchanged starter file also gets (a mapping the handout makes a global, the
  starter's own ``%`` formatting) is not the student's: messages are matched by symbol and
  text, with numbers blanked, so moved lines still match;
- python_ta running out of time on a file, or refusing it (a ``pylint:`` comment), is the
  student's; python_ta crashing is a grader error, never a student's zero.

Reaching the sandbox: a tool runs a child-side script of the harness, which carries the
engine's runners (``graders.sandbox.HARNESS_MODULES``) beside the pack's driver: the runner is
``/harness/pyta_runner.py``, started by the tool's own interpreter.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from graders.errors import GraderError
from graders.sandbox import RunResult

TOOL = "python_ta"
RUNNER = "pyta_runner.py"  # in every harness (graders.sandbox.HARNESS_MODULES)

# How a file python_ta ran out of time on is refused (an answer that depends on the load).
TIMED_OUT = "python_ta did not finish checking it"

RunTool = Callable[..., RunResult]
Checked = tuple[Path, list[str]]  # a student's workspace and the files python_ta checks


@dataclass(frozen=True)
class Message:
    """One python_ta message about one place in a file."""

    id: str
    symbol: str
    category: str
    line: int
    text: str

    @property
    def section(self) -> str:
        return "errors" if self.category in ("E", "F") else "style"

    @property
    def key(self) -> tuple[str, str]:
        """The same complaint wherever it sits: line numbers in the text are blanked."""
        return self.symbol, re.sub(r"\d+", "#", self.text)

    def describe(self) -> str:
        return f"line {self.line}: {self.id} ({self.symbol}) {self.text}"


@dataclass
class FileReport:
    """What python_ta made of one file: its messages, or why there are none."""

    file: str
    messages: list[Message] = field(default_factory=list)
    count: int = 0
    refused: str | None = None  # the student's: python_ta timed out on it or would not check it
    crashed: str | None = None  # the grader's: python_ta itself failed


@dataclass
class Run:
    """Every file's report and the versions that made them."""

    files: dict[str, FileReport]
    versions: dict[str, str]
    config: str

    @property
    def made_by(self) -> str:
        shown = ", ".join(f"{name} {version}" for name, version in self.versions.items())
        return f"{shown or 'python_ta'} with {self.config}"


def runner_call(args: list[str]) -> tuple[str, list[str]]:
    """The harness script and arguments that run :mod:`pyta_runner` with ``args``."""
    return RUNNER, list(args)


def parse(stdout: str) -> tuple[dict[str, str], dict[str, FileReport]]:
    """The versions header and the file reports in a runner's stdout (a cut-off last line,
    from a run stopped midway, is ignored)."""
    versions: dict[str, str] = {}
    reports: dict[str, FileReport] = {}
    for line in stdout.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        if "versions" in record:
            versions = {str(k): str(v) for k, v in dict(record["versions"]).items()}
        elif "file" in record:
            reports[record["file"]] = _report(record)
    return versions, reports


def _report(record: dict) -> FileReport:
    messages = [
        Message(m["id"], m["symbol"], m["category"], int(m["line"] or 0), m["text"])
        for m in record.get("messages", [])
    ]
    not_checked = record.get("not_checked")
    return FileReport(
        file=record["file"],
        messages=messages,
        count=int(record.get("count", len(messages))),
        refused=f"python_ta would not check it: {not_checked}" if not_checked else None,
        crashed=record.get("crash"),
    )


def run(run_tool: RunTool, config: str, files: list[str], workspace: str = "student") -> Run:
    """python_ta with ``config`` on ``files``; a file it runs out of time on is refused and
    the rest are checked by a fresh run, so one slow file costs only its own marks."""
    reports: dict[str, FileReport] = {}
    versions: dict[str, str] = {}
    pending = list(files)
    while pending:
        result = run_tool(TOOL, *runner_call([config, *pending]), workspace=workspace)
        header, found = parse(result.stdout)
        versions = header or versions
        reports.update(found)
        pending = [name for name in pending if name not in reports]
        if not pending:
            break
        if not result.timed_out:
            raise GraderError(
                f"python_ta stopped before checking {', '.join(pending)}: "
                f"{result.last_error()}"
            )
        slow = pending.pop(0)
        reports[slow] = FileReport(
            slow, refused=f"{TIMED_OUT} within {result.seconds:.0f} s"
        )
    return Run(reports, versions, config)


def run_chunk(run_tool_over: RunTool, config: str, students: dict[str, Checked]) -> dict[str, Run]:
    """python_ta on several students' files in ONE run (``students``: id -> workspace and the
    files to check), each student checked in a folder of their own (see pyta_runner.py).

    Only the students whose every file came back are in the answer: one the run did not
    finish (it ran out of time, python_ta stopped) is left to a run of their own (:func:`run`),
    which refuses a slow file as usual. Equal to per-student runs: tests/style.
    """
    order = [(f"s{index}", student) for index, student in enumerate(students)]
    plan = [[folder, students[student][1]] for folder, student in order]
    folders = {folder: students[student][0] for folder, student in order}
    script, args = runner_call(["--chunk", config, json.dumps(plan)])
    result = run_tool_over(TOOL, script, args, folders)
    versions, _ = parse(result.stdout)
    found: dict[str, dict[str, FileReport]] = {}
    for line in result.stdout.splitlines():
        with contextlib.suppress(ValueError, KeyError, TypeError):
            record = json.loads(line)
            found.setdefault(record["folder"], {})[record["file"]] = _report(record)
    runs = {}
    for folder, student in order:
        reports = found.get(folder, {})
        if set(reports) == set(students[student][1]):
            runs[student] = Run(reports, versions, config)
    return runs


# An assessed file parses, so a syntax-error message on it is about a module it imports,
# which is marked on that module (the syntax-error rule), not a second time here.
NOT_ABOUT_THIS_FILE = frozenset({"syntax-error"})
# python_ta's naming checker asks a module's dunder names (`__all__`, `__version__`) to be
# UPPER_CASE, and its "fix" (`__ALL__`) would break them: Python's own names, not the
# student's choice (pylint's invalid-name, which it replaced, leaves them alone).
DUNDER_NAMED = re.compile(r'\bname "__\w+__"')


def _python_s_own_name(message: Message) -> bool:
    return message.symbol == "naming-convention-violation" and bool(
        DUNDER_NAMED.search(message.text))


def new_messages(student: Iterable[Message], starter: Iterable[Message]) -> list[Message]:
    """``student``'s messages less those the starter file gets too (each starter message
    excuses one student message with the same key) and those about another file."""
    excused = Counter(message.key for message in starter)
    kept = []
    for message in student:
        if message.symbol in NOT_ABOUT_THIS_FILE or _python_s_own_name(message):
            continue
        if excused[message.key] > 0:
            excused[message.key] -= 1
        else:
            kept.append(message)
    return kept
