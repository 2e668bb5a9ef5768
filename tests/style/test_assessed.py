"""What a python_ta style criterion assesses and counts (graders/style/assessed.py), on the
stonehenge pack's declaration and fake runs: no sandbox, no python_ta."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from graders.errors import GraderError
from graders.pack import get_pack
from graders.style import assessed
from graders.style.python_ta import FileReport, Message, Run

PACK = get_pack("stonehenge")


@pytest.fixture(autouse=True)
def no_kept_answers(monkeypatch):
    """These fake runs are neither read from nor kept among the real python_ta answers
    (graders/style/answers.py): a fake starter answer kept there would excuse nothing."""
    monkeypatch.setattr(assessed, "answers_dir", lambda name: None)
CHANGED = '"""Mine."""\n\n\nCACHE = {}\n'


def submission(files, helpers=(), sid="ann"):
    return SimpleNamespace(id=sid, files=dict(files), helpers=list(helpers),
                           workspace=Path(sid))


def run(**reports):
    return Run({name: report for name, report in reports.items()}, {"python_ta": "2"},
               "a2_pyta.txt")


def test_the_settings_come_from_the_declaration():
    settings = assessed.Settings.of(PACK)
    assert settings == assessed.Settings("a2_pyta.txt", ("stonehenge.py", "strategy.py"))
    undeclared = SimpleNamespace(config="", files=[])
    with pytest.raises(GraderError, match=r"declares no \[python_ta\] config and files"):
        assessed.Settings.of(SimpleNamespace(
            id="demo", declaration=SimpleNamespace(python_ta=undeclared)))


def test_only_changed_files_that_parse_are_assessed_helpers_too():
    student = submission({"stonehenge.py": CHANGED, "strategy.py": "def broken(:\n",
                          "board.py": CHANGED, "bad_helper.py": "x = (\n"},
                         helpers=["board.py", "bad_helper.py"])
    assert assessed.assessed_files(student, PACK) == ["stonehenge.py", "board.py"]
    starter = submission({"stonehenge.py": PACK.template_text("stonehenge.py"),
                          "strategy.py": CHANGED})
    assert assessed.assessed_files(starter, PACK) == ["strategy.py"]


def test_the_criterion_fails_only_when_no_work_of_theirs_is_there_to_assess():
    unchanged = {"stonehenge.py": PACK.template_text("stonehenge.py"),
                 "strategy.py": PACK.template_text("strategy.py")}
    with pytest.raises(AssertionError, match="stonehenge.py is the starter file unchanged"):
        assessed.expect_work_to_assess(submission(unchanged), PACK)
    with pytest.raises(AssertionError, match="stonehenge.py was not handed in"):
        assessed.expect_work_to_assess(submission({}), PACK)
    # one file of theirs, or their own modules (the game in sh_game.py, wired through
    # game_interface.py, and no stonehenge.py): what they wrote is assessed
    assessed.expect_work_to_assess(submission({"stonehenge.py": CHANGED}), PACK)
    own = submission({**unchanged, "sh_game.py": CHANGED}, helpers=["sh_game.py"])
    del own.files["stonehenge.py"]
    assessed.expect_work_to_assess(own, PACK)
    assert assessed.assessed_files(own, PACK) == ["sh_game.py"]
    assert assessed.kinds_found(own, PACK, run(), run()) == {}


def test_kinds_leave_out_the_starters_messages_and_lines():
    global_12 = Message("E9997", "forbidden-global-variables", "E", 12, "global on line 12")
    global_30 = Message("E9997", "forbidden-global-variables", "E", 30, "global on line 30")
    long_4 = Message("C0301", "line-too-long", "C", 4, "line too long")
    student = submission({"stonehenge.py": CHANGED, "strategy.py": "def broken(:\n"})
    kinds = assessed.kinds_found(
        student, PACK, run(**{"stonehenge.py": FileReport("stonehenge.py",
                                                          [global_30, long_4])}),
        run(**{"stonehenge.py": FileReport("stonehenge.py", [global_12])}))
    assert kinds == {"C0301 line-too-long": ["stonehenge.py:4 line too long"],
                     assessed.SYNTAX_ERROR: ["strategy.py: does not parse"]}


def test_a_refused_file_is_a_kind_and_a_crash_is_the_graders():
    student = submission({"stonehenge.py": CHANGED, "strategy.py": CHANGED})
    refused = run(**{"strategy.py": FileReport("strategy.py", refused="a pylint: comment")})
    kinds = assessed.kinds_found(student, PACK, refused, run())
    assert list(kinds) == ["refused (python_ta would not check the file)"]
    crashed = run(**{"strategy.py": FileReport("strategy.py", crashed="RecursionError")})
    with pytest.raises(GraderError, match="python_ta crashed on strategy.py"):
        assessed.kinds_found(student, PACK, crashed, run())


def test_runs_are_made_once_and_the_session_run_is_preferred():
    calls = []
    mine = run(**{"stonehenge.py": FileReport("stonehenge.py")})

    def run_tool(name, script, args, workspace="student"):
        calls.append((workspace, args[1:]))
        out = '{"versions": {"python_ta": "2"}}\n' + "".join(
            f'{{"file": "{file}", "messages": []}}\n' for file in args[1:])
        return SimpleNamespace(stdout=out, timed_out=False)

    memo: dict = {}
    student = submission({"stonehenge.py": CHANGED})
    assert assessed.student_run(PACK, student, run_tool, memo, {"ann": mine}) is mine
    assert assessed.student_run(PACK, student, run_tool, memo, {}) is mine
    assert calls == []
    alone = assessed.student_run(PACK, submission({"stonehenge.py": CHANGED}, sid="bob"),
                                 run_tool, {}, {})
    assert alone is not None and list(alone.files) == ["stonehenge.py"]
    batch: dict = {}
    starter = assessed.starter_run(PACK, run_tool, batch)
    assert assessed.starter_run(PACK, run_tool, batch) is starter
    assert calls == [("student", ["stonehenge.py"]),
                     ("starter", ["stonehenge.py", "strategy.py"])]
    assert assessed.described(alone).startswith("python_ta (python_ta 2 with a2_pyta.txt) on")


def test_a_dunder_name_is_pythons_not_a_naming_fault():
    """python_ta's C9103 asks for `__ALL__`; pylint's invalid-name left `__all__` alone."""
    dunder = Message("C9103", "naming-convention-violation", "C", 10,
                     'Constant name "__all__" should be in UPPER_CASE_WITH_UNDERSCORES format. '
                     'Suggested fix: "__ALL__"')
    mine = Message("C9103", "naming-convention-violation", "C", 12,
                   'Constant name "cache" should be in UPPER_CASE_WITH_UNDERSCORES format.')
    student = submission({"stonehenge.py": CHANGED, "strategy.py": CHANGED})
    kinds = assessed.kinds_found(
        student, PACK, run(**{"stonehenge.py": FileReport("stonehenge.py", [dunder, mine])}),
        run())
    assert kinds == {"C9103 naming-convention-violation": [f"stonehenge.py:12 {mine.text}"]}
