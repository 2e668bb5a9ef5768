"""Style: python_ta with the course's a2_pyta.txt, as the handout asks (see pyta.py).

One sandboxed python_ta run per grading session checks stonehenge.py, strategy.py and every
helper module of every student, each file once, each student in a folder of their own (a
student that run did not finish gets a run of their own). Not game_interface.py: its docstring
tells students python_ta need not be run on it, and they change only its mappings. The
criterion is proportional (``per_kind`` in assignment.toml): each distinct kind of message
costs the same, however many lines carry it; kinds python_ta gained after the course are
listed, never counted (``free_kinds``). A message on a line of the starter's text, or one the
unchanged starter file gets too, is not the student's.

No vacuous credit: style is marked only on work that does something. The two files must be
handed in and changed from the starter, and the game or a minimax strategy must work on a
small case; otherwise the test fails without kinds and the criterion is forfeited. A file that
does not parse is one kind of message (python_ta's own E0001), not the loss of every file.
"""

from __future__ import annotations

import ast

import pytest

from graders.errors import GraderError
from graders.packs.stonehenge import oracle, pyta
from graders.starter import is_starter_line
from graders.testing import expect_no_kinds

REQUIRED = ["stonehenge.py", "strategy.py"]
# A strategy that always takes the first or the last move fails one of these totals.
PROBE_TOTALS = [4, 13]
# What python_ta itself reports on a file it cannot parse.
SYNTAX_ERROR = "E0001 syntax-error"


def parses(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return True


def handed_in(submission, pack, file):
    source = submission.files.get(file)
    assert source is not None, f"{file} was not handed in, so its style cannot be assessed"
    assert source.strip() != pack.template_text(file).strip(), (
        f"{file} is the starter file unchanged: there is no work of yours to assess")
    return source


def assessed_files(submission, pack) -> list[str]:
    """The required files handed in, changed and parsing, then the helper modules that parse
    (a file that does not parse is one kind of message, python_ta's E0001)."""
    files = []
    for file in REQUIRED:
        try:
            source = handed_in(submission, pack, file)
        except AssertionError:
            continue
        if parses(source):
            files.append(file)
    helpers = getattr(submission, "helpers", [])
    return files + [name for name in helpers if name.endswith(".py")
                    and parses(submission.files.get(name, ""))]


@pytest.fixture
def starter_run(run_tool, batch_memo):
    """python_ta on the starter files, once per grading session."""
    if "starter" not in batch_memo:
        starter = pyta.run(run_tool, REQUIRED, workspace="starter")
        for report in starter.files.values():
            if report.refused or report.crashed:
                raise GraderError(f"python_ta could not check the starter {report.file}: "
                                  f"{report.refused or report.crashed}")
        batch_memo["starter"] = starter
    return batch_memo["starter"]


@pytest.fixture
def session_runs(grading_state, pack, run_tool_over, batch_memo):
    """python_ta on every student of the session in ONE run (see pyta.run_chunk); a student
    it did not finish, or every student when it failed, gets a run of their own."""
    if "python_ta" not in batch_memo:
        students = {s.id: (s.workspace, files) for s in grading_state.submissions
                    if (files := assessed_files(s, pack))}
        try:
            batch_memo["python_ta"] = pyta.run_chunk(run_tool_over, students) if students else {}
        except Exception:  # noqa: BLE001 - each student's own run says what went wrong
            batch_memo["python_ta"] = {}
    return batch_memo["python_ta"]


@pytest.fixture
def student_run(submission, pack, run_tool, memo, session_runs):
    """python_ta on this student's assessed files, once for all their style tests."""
    if "python_ta" not in memo:
        files = assessed_files(submission, pack)
        found = session_runs.get(submission.id) if files else None
        memo["python_ta"] = found or (pyta.run(run_tool, files) if files else None)
    return memo["python_ta"]


def expect_working(student):
    """The game plays a side-1 game, or a minimax strategy picks the best subtract-square
    moves; else there is nothing of the student's whose style earns marks."""
    try:
        snaps = student.call("trace", 1, True, ["A"], ["moves", "over"])
        if snaps[0].get("moves") == oracle.moves(oracle.start(1)) and snaps[-1].get("over"):
            return
    except AssertionError:
        pass
    for key in ("mr", "mi"):
        try:
            moves = student.call("subtract_square", key, PROBE_TOTALS)
        except AssertionError:
            continue
        if all(move in [str(best) for best in oracle.square_best_moves(total)]
               for total, move in zip(PROBE_TOTALS, moves, strict=True)):
            return
    raise AssertionError("neither your game (a side-1 game: moves A, B, C, and over after A) "
                         "nor your minimax strategies (subtract square from 4 and 13) work, so "
                         "there is no working code of yours whose style earns marks")


def kinds_found(submission, pack, student_run, starter_run) -> dict[str, list[str]]:
    """Each counted kind of python_ta message (``"C0301 line-too-long"``) with its places."""
    kinds: dict[str, list[str]] = {}
    for file in REQUIRED:
        if not parses(submission.files[file]):
            kinds.setdefault(SYNTAX_ERROR, []).append(f"{file}: does not parse")
    for file, report in (student_run.files if student_run else {}).items():
        if report.crashed:
            raise GraderError(f"python_ta crashed on {file}: {report.crashed}")
        if report.refused:
            kinds.setdefault("refused (python_ta would not check the file)", []).append(
                f"{file}: {report.refused}")
            continue
        source = submission.files[file]
        starter = starter_run.files[file].messages if file in starter_run.files else []
        for message in pyta.new_messages(report.messages, starter):
            if is_starter_line(pack, file, source, message.line):
                continue
            kinds.setdefault(f"{message.id} {message.symbol}", []).append(
                f"{file}:{message.line} {message.text}")
    return kinds


@pytest.mark.public
def test_style_python_ta(submission, pack, student, student_run, starter_run):
    for file in REQUIRED:
        handed_in(submission, pack, file)
    expect_working(student)
    kinds = kinds_found(submission, pack, student_run, starter_run)
    checked = ", ".join(student_run.files) if student_run else "no file that parses"
    made_by = student_run.made_by if student_run else "python_ta"
    expect_no_kinds(kinds, what=f"python_ta ({made_by}) on {checked}")
