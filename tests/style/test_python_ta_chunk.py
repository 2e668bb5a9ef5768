"""python_ta over a whole session in ONE run (python_ta.run_chunk) says, for every student, exactly
what a run of their own (python_ta.run) says: imports never cross between students' folders."""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from graders.fixtures import tool_over
from graders.pack import get_pack
from graders.sandbox import Sandbox
from graders.style import python_ta as pyta
from graders.submissions import prepare
from graders.tools import tool_of

PACK = get_pack("stonehenge")
CONFIG = "a2_pyta.txt"
SESSION = 8  # students per run: well within the tool's 60 s on a loaded machine
# Nine students, so two runs as two shares would make them: every student holds a stonehenge.py
# and a strategy.py of their own (the names a leak between folders would cross on); these add
# helper modules only one folder has, the style samples' messages, and a file that does not
# parse beside one that does. Each student costs a python_ta run of their own, a few seconds;
# the other samples add no new way for one folder to reach another.
STUDENTS = ["correct", "helpers_board_leyline", "tree_and_memo_modules", "renamed_game_module",
            "style_many_messages", "style_module_global", "style_problems",
            "style_pylint_comment", "strategy_syntax_error"]


def checked_files(workspace: Path) -> list[str]:
    """The student's own files that parse, about what the style test checks (any list would
    do for this equality; starter files would only make each run longer)."""
    files = []
    for path in sorted(workspace.glob("*.py"), key=lambda p: (p.name != "stonehenge.py", p.name)):
        text = path.read_text(encoding="utf-8")
        starter = PACK.templates_dir / path.name
        if starter.is_file() and starter.read_text(encoding="utf-8") == text:
            continue
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        if path.name != "game_interface.py":
            files.append(path.name)
    return files


@pytest.fixture
def sandbox():
    sandbox = Sandbox()
    yield sandbox
    sandbox.close()


def alone(sandbox: Sandbox, folder: Path, files: list[str]) -> pyta.Run:
    """A run of the student's own, as the run_tool fixture makes it."""
    tool = tool_of(PACK, pyta.TOOL)

    def run_tool(name, script, args, workspace="student"):
        return sandbox.run(folder, tool.command(script, args), tool.limits(PACK.limits),
                           harness=sandbox.harness_for(PACK.driver), tools={name: tool.home})

    return pyta.run(run_tool, CONFIG, files)


@pytest.mark.sandbox
@pytest.mark.long
# 11 python_ta runs, about half a minute on a quiet machine: the suite's 300 s ran out on a
# loaded one when it made 27 (other jobs on both cores), though nothing was wrong.
@pytest.mark.timeout(900)
def test_one_run_over_many_students_equals_a_run_per_student(sandbox: Sandbox, tmp_path: Path):
    assert tool_of(PACK, pyta.TOOL).problem() is None
    students = {}
    for name in STUDENTS:
        submission = prepare(PACK.fixtures_dir / "submissions" / name, PACK, tmp_path / name)
        students[submission.id] = (submission.workspace, checked_files(submission.workspace))
    assert len(students) > SESSION and all(files for _, files in students.values())

    def run_tool_over(name, script, args, folders):
        return tool_over(PACK, sandbox, name, script, args, folders)

    started = time.perf_counter()
    chunked: dict[str, pyta.Run] = {}
    names = list(students)
    for start in range(0, len(names), SESSION):  # as grading sessions do: a share each
        share = {name: students[name] for name in names[start:start + SESSION]}
        chunked.update(pyta.run_chunk(run_tool_over, CONFIG, share))
    print(f"a run per {SESSION}: {time.perf_counter() - started:.1f} s for {len(students)}")
    started = time.perf_counter()
    assert set(chunked) == set(students)
    for student, (workspace, files) in students.items():
        assert chunked[student] == alone(sandbox, workspace, files), student
        assert chunked[student].files, student
    print(f"a run each: {time.perf_counter() - started:.1f} s")
    # mypy's answers come through too (one cache per run, not per student folder: a message
    # of python_ta's type check in tree_and_memo_modules proves that mypy ran and was read)
    type_checks = {message.symbol for run in chunked.values() for report in run.files.values()
                   for message in report.messages if message.id.startswith("E995")}
    assert type_checks, "no message of python_ta's type check (mypy) in any student"


def test_a_student_the_chunk_did_not_finish_is_left_out():
    """A run stopped midway answers for the students it finished only."""
    header = '{"versions": {"python_ta": "2"}}'
    done = '{"folder": "s0", "file": "a.py", "messages": [], "count": 0}'
    half = '{"folder": "s1", "file": "b.py", "messages": [], "count": 0}'

    def run_tool_over(name, script, args, folders):
        assert list(folders) == ["s0", "s1"] and args[:2] == ["--chunk", CONFIG]
        return pyta.RunResult(argv=[], stdout="\n".join([header, done, half, '{"fol']),
                              stderr="", exit_code=None, timed_out=True,
                              output_truncated=False, seconds=60.0)

    runs = pyta.run_chunk(run_tool_over, CONFIG, {"ann": (Path("a"), ["a.py"]),
                                          "bob": (Path("b"), ["b.py", "c.py"])})
    assert list(runs) == ["ann"]
    assert runs["ann"].versions == {"python_ta": "2"}
