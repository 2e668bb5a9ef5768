"""A python_ta style criterion for any pack that declares the tool: what is assessed, the runs
it needs (memoised), and the kinds of message the student answers for.

The pack says, in ``assignment.toml``::

    [python_ta]
    config = "pyta_config.txt"
    files = ["game.py", "strategy.py"]

``config`` is the (locked) config file python_ta reads; ``files`` are the handed-in files whose
style is assessed where the student handed them in and changed them from the starter, with the
student's helper modules; the criterion fails for want of work only when none of them is
theirs. A file that does not parse is one kind of message (python_ta's own E0001), not the
loss of every file.

One sandboxed python_ta run per grading session checks every student's assessed files, each
in a folder of their own (a student that run did not finish gets a run of their own); the
starter files are checked once per session. A message on a line of the starter's text, or
one the unchanged starter file gets too, is not the student's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from graders.errors import GraderError
from graders.pack import Pack
from graders.starter import is_starter_line
from graders.style import python_ta
from graders.style.answers import Answers
from graders.style.python_ta import RunTool
from graders.submissions import Submission
from graders.tools import answers_dir, tool_of

# What python_ta itself reports on a file it cannot parse.
SYNTAX_ERROR = "E0001 syntax-error"


@dataclass(frozen=True)
class Settings:
    """``[python_ta]`` of a pack: the config file and the files assessed."""

    config: str
    files: tuple[str, ...]

    @classmethod
    def of(cls, pack: Pack) -> Settings:
        table = pack.declaration.python_ta
        if not table.config or not table.files:
            raise GraderError(f"pack {pack.id} declares no [python_ta] config and files "
                              "(graders/style/assessed.py)")
        return cls(table.config, tuple(table.files))


def parses(source: str) -> bool:
    """Whether ``source`` is Python that parses."""
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return True


def handed_in(submission: Submission, pack: Pack, file: str) -> str:
    """The source of ``file``; an AssertionError (the student's) when it was not handed in or
    is the starter unchanged, so there is no work of theirs to assess."""
    source = submission.files.get(file)
    assert source is not None, f"{file} was not handed in, so its style cannot be assessed"
    assert source.strip() != pack.template_text(file).strip(), (
        f"{file} is the starter file unchanged: there is no work of yours to assess")
    return source


def expect_work_to_assess(submission: Submission, pack: Pack) -> None:
    """Fail unless some work of the student's can be assessed: an assessed file handed in and
    changed from the starter, or a helper module of theirs. A student whose game lives in a
    module of their own, wired into the course's entry point, may hand in no ``game.py`` at
    all: that is the file rules' to charge, and their own modules' style is assessed."""
    files = Settings.of(pack).files
    if any(_mine(submission, pack, file) for file in files) or any(
            name.endswith(".py") for name in submission.helpers):
        return
    for file in files:
        handed_in(submission, pack, file)  # the first file missing or unchanged says so


def _mine(submission: Submission, pack: Pack, file: str) -> bool:
    try:
        handed_in(submission, pack, file)
    except AssertionError:
        return False
    return True


def assessed_files(submission: Submission, pack: Pack) -> list[str]:
    """The assessed files handed in, changed and parsing, then the helper modules that parse."""
    files = [file for file in Settings.of(pack).files
             if _mine(submission, pack, file) and parses(submission.files[file])]
    return files + [name for name in submission.helpers
                    if name.endswith(".py") and parses(submission.files.get(name, ""))]


def answers(pack: Pack, batch_memo: dict[str, Any]) -> Answers:
    """Where this pack's python_ta answers are kept between runs (graders/style/answers.py),
    made once per grading session."""
    if "python_ta:answers" not in batch_memo:
        home = answers_dir(python_ta.TOOL)
        versions = tool_of(pack, python_ta.TOOL).versions()
        config = pack.template_text(Settings.of(pack).config)
        batch_memo["python_ta:answers"] = Answers(home, config, versions)
    kept: Answers = batch_memo["python_ta:answers"]
    return kept


def starter_run(pack: Pack, run_tool: RunTool, batch_memo: dict[str, Any]) -> python_ta.Run:
    """python_ta on the starter's assessed files, once per pack (then kept)."""
    if "python_ta:starter" not in batch_memo:
        settings = Settings.of(pack)
        kept = answers(pack, batch_memo)
        starter = kept.run_of(pack.templates_dir, list(settings.files), settings.config)
        if starter is None:
            starter = python_ta.run(run_tool, settings.config, list(settings.files),
                                    workspace="starter")
            kept.keep(pack.templates_dir, starter)
        for report in starter.files.values():
            if report.refused or report.crashed:
                raise GraderError(f"python_ta could not check the starter {report.file}: "
                                  f"{report.refused or report.crashed}")
        batch_memo["python_ta:starter"] = starter
    run: python_ta.Run = batch_memo["python_ta:starter"]
    return run


def session_runs(pack: Pack, submissions: Iterable[Submission], run_tool_over: RunTool,
                 batch_memo: dict[str, Any]) -> dict[str, python_ta.Run]:
    """python_ta on every student of the session in ONE run (:func:`python_ta.run_chunk`);
    a student it did not finish, or every student when it failed, is left out."""
    if "python_ta:session" not in batch_memo:
        students = {s.id: (s.workspace, files) for s in submissions
                    if (files := assessed_files(s, pack))}
        batch_memo["python_ta:session"] = _runs_over(
            students, Settings.of(pack).config, run_tool_over, answers(pack, batch_memo))
    found: dict[str, python_ta.Run] = batch_memo["python_ta:session"]
    return found


def _runs_over(students: dict[str, python_ta.Checked], config: str, run_tool_over: RunTool,
               kept: Answers) -> dict[str, python_ta.Run]:
    """Each student's run: kept answers where there are some, else ONE run over the students
    left, each distinct set of files checked once (a copied submission is checked once)."""
    runs: dict[str, python_ta.Run] = {}
    first: dict[tuple[str | None, ...], str] = {}  # what is checked -> who asks for it
    twin_of: dict[str, str] = {}  # student -> the student whose run answers for them
    for student, (workspace, files) in students.items():
        signature = kept.signature(workspace, files)  # each file's context read once
        found = kept.run_from(signature, files, config)
        if found is not None:
            runs[student] = found
            continue
        twin_of[student] = first.setdefault(signature if None not in signature else (student,),
                                            student)
    ask = {twin: students[twin] for twin in first.values()}
    try:
        answered = python_ta.run_chunk(run_tool_over, config, ask) if ask else {}
    except Exception:  # noqa: BLE001 - each student's own run says what went wrong
        answered = {}
    for student, run in answered.items():
        kept.keep(students[student][0], run)
    runs.update({student: answered[twin] for student, twin in twin_of.items()
                 if twin in answered})
    return runs


def student_run(pack: Pack, submission: Submission, run_tool: RunTool, memo: dict[str, Any],
                session: dict[str, python_ta.Run],
                batch_memo: dict[str, Any] | None = None) -> python_ta.Run | None:
    """python_ta on this student's assessed files (from the session's run, else kept
    answers, else a run of their own), once for all their style tests; None when no file of
    theirs parses."""
    if "python_ta" not in memo:
        files = assessed_files(submission, pack)
        found = session.get(submission.id) if files else None
        config = Settings.of(pack).config
        if found is None and files:
            kept = answers(pack, batch_memo if batch_memo is not None else {})
            found = kept.run_of(submission.workspace, files, config)
            if found is None:
                found = python_ta.run(run_tool, config, files)
                kept.keep(submission.workspace, found)
        memo["python_ta"] = found
    run: python_ta.Run | None = memo["python_ta"]
    return run


def kinds_found(submission: Submission, pack: Pack, student: python_ta.Run | None,
                starter: python_ta.Run) -> dict[str, list[str]]:
    """Each counted kind of python_ta message (``"C0301 line-too-long"``) with its places."""
    kinds: dict[str, list[str]] = {}
    for file in Settings.of(pack).files:
        if _mine(submission, pack, file) and not parses(submission.files[file]):
            kinds.setdefault(SYNTAX_ERROR, []).append(f"{file}: does not parse")
    for file, report in (student.files if student else {}).items():
        if report.crashed:
            raise GraderError(f"python_ta crashed on {file}: {report.crashed}")
        if report.refused:
            kinds.setdefault("refused (python_ta would not check the file)", []).append(
                f"{file}: {report.refused}")
            continue
        source = submission.files[file]
        excused = starter.files[file].messages if file in starter.files else []
        for message in python_ta.new_messages(report.messages, excused):
            if not is_starter_line(pack, file, source, message.line):
                kinds.setdefault(f"{message.id} {message.symbol}", []).append(
                    f"{file}:{message.line} {message.text}")
    return kinds


def described(student: python_ta.Run | None) -> str:
    """What checked what, for the failure message: ``python_ta (versions with config) on
    files``."""
    checked = ", ".join(student.files) if student else "no file that parses"
    return f"python_ta ({student.made_by if student else 'python_ta'}) on {checked}"
