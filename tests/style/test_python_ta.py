"""Reading python_ta's runs (graders/style/python_ta.py) and running it (pyta_runner.py, in the
real tool, as the stonehenge pack declares it)."""

from __future__ import annotations

import json
import shutil

import pytest

from graders.errors import GraderError
from graders.pack import get_pack
from graders.sandbox import RunResult, Sandbox
from graders.style import python_ta as pyta
from graders.tools import tool_of

PACK = get_pack("stonehenge")
TEMPLATES = PACK.templates_dir
REFERENCE = PACK.reference_dir
CONFIG = "a2_pyta.txt"


def message(symbol="line-too-long", line=3, text="This line is 85 characters long", cat="C"):
    return {"id": "C0301", "symbol": symbol, "category": cat, "line": line, "column": 0,
            "text": text}


def stdout(*records):
    return "".join(json.dumps(record) + "\n" for record in records)


def result(out, timed_out=False, stderr="", seconds=1.0):
    return RunResult(argv=[], stdout=out, stderr=stderr, exit_code=None if timed_out else 0,
                     timed_out=timed_out, output_truncated=False, seconds=seconds)


def test_parse_reads_the_header_and_every_finished_file():
    out = stdout({"versions": {"python_ta": "2.13.1"}},
                 {"file": "a.py", "messages": [message()], "count": 1},
                 {"file": "b.py", "not_checked": 'String "pylint:" found in comment.'},
                 {"file": "c.py", "crash": "RecursionError: too deep"})
    versions, reports = pyta.parse(out + '{"file": "d.py", "mess')
    assert versions == {"python_ta": "2.13.1"}
    assert sorted(reports) == ["a.py", "b.py", "c.py"]
    assert reports["a.py"].messages == [
        pyta.Message("C0301", "line-too-long", "C", 3, "This line is 85 characters long")]
    refused = 'python_ta would not check it: String "pylint:" found in comment.'
    assert reports["b.py"].refused == refused
    assert reports["c.py"].crashed == "RecursionError: too deep" and reports["c.py"].refused is None


@pytest.mark.parametrize(("category", "section"), [
    ("E", "errors"), ("F", "errors"), ("C", "style"), ("R", "style"), ("W", "style")])
def test_a_message_falls_in_the_section_of_pythontas_report(category, section):
    assert pyta.Message("X", "x", category, 1, "t").section == section


def test_a_starter_message_excuses_one_like_it_wherever_it_moved():
    global_at_12 = pyta.Message("E9997", "forbidden-global-variables", "E", 12,
                                "a global variable 'playable_games' is assigned to on line 12")
    moved = pyta.Message("E9997", "forbidden-global-variables", "E", 14,
                         "a global variable 'playable_games' is assigned to on line 14")
    new = pyta.Message("E9997", "forbidden-global-variables", "E", 20,
                       "a global variable 'cache' is assigned to on line 20")
    assert pyta.new_messages([moved, new], [global_at_12]) == [new]
    assert pyta.new_messages([moved, moved], [global_at_12]) == [moved]


def test_a_syntax_error_reported_on_an_importing_file_is_not_counted_there():
    cannot_import = pyta.Message("E0001", "syntax-error", "E", 9,
                                 "Cannot import 'strategy' due to 'expected ':''")
    assert pyta.new_messages([cannot_import], []) == []


def test_a_file_that_runs_out_of_time_is_refused_and_the_rest_are_checked_again():
    calls = []
    first = stdout({"versions": {"python_ta": "2.13.1"}}, {"file": "a.py", "messages": []})
    second = stdout({"versions": {"python_ta": "2.13.1"}}, {"file": "c.py", "messages": []})
    answers = iter([result(first, timed_out=True, seconds=60), result(second)])

    def run_tool(name, script, args, workspace):
        assert script == "pyta_runner.py" and args[0] == CONFIG
        calls.append(args[1:])
        return next(answers)

    run = pyta.run(run_tool, CONFIG, ["a.py", "b.py", "c.py"])
    assert calls == [["a.py", "b.py", "c.py"], ["c.py"]]
    assert run.files["b.py"].refused == "python_ta did not finish checking it within 60 s"
    assert run.files["a.py"].refused is None and run.files["c.py"].refused is None
    assert run.made_by == "python_ta 2.13.1 with a2_pyta.txt"


def test_python_ta_stopping_for_another_reason_is_a_grader_error():
    def run_tool(name, script, args, workspace):
        return result("", stderr="Traceback ...\nModuleNotFoundError: No module named 'astroid'")

    with pytest.raises(GraderError, match="No module named 'astroid'"):
        pyta.run(run_tool, CONFIG, ["a.py"])


@pytest.fixture(scope="module")
def real_run_tool(tmp_path_factory):
    """run_tool as the plugin makes it, on a workspace of starter files + chosen sources."""
    pack = PACK
    tool = tool_of(pack, pyta.TOOL)
    assert tool.problem() is None, tool.problem()
    sandbox = Sandbox()

    def make(sources):
        folder = tmp_path_factory.mktemp("pyta")
        shutil.copytree(TEMPLATES, folder, dirs_exist_ok=True)
        for name, text in sources.items():
            (folder / name).write_text(text)

        def run_tool(name, script, args, workspace="student"):
            return sandbox.run(folder, tool.command(script, args),
                               tool.limits(pack.limits),
                               harness=sandbox.harness_for(pack.driver),
                               tools={name: tool.home})

        return run_tool

    yield make
    sandbox.close()


@pytest.mark.sandbox
def test_the_reference_gets_nothing_the_starter_does_not(real_run_tool):
    files = ["stonehenge.py", "strategy.py"]
    sources = {name: (REFERENCE / name).read_text() for name in files}
    reference = pyta.run(real_run_tool(sources), CONFIG, files)
    starter = pyta.run(real_run_tool({}), CONFIG, files)
    assert set(reference.versions) == {"python_ta", "pylint", "astroid"}
    for name in files:
        assert pyta.new_messages(reference.files[name].messages,
                                 starter.files[name].messages) == [], name


COURSE_DISABLED = '''"""A helper module."""
from game_state import GameState


class Leftover(GameState):
    """A state that forgets its parent's constructor."""

    def __init__(self, is_p1_turn: bool) -> None:
        """Make it."""
        # TODO: call the parent constructor
        self.p1_turn = is_p1_turn
        "a string statement"
        print("io is allowed by the course's config")
'''


@pytest.mark.sandbox
def test_the_courses_config_disables_what_it_disabled(real_run_tool):
    """a2_pyta.txt as the course had it: W0511 (fixme), W0105 (a string statement), W0231
    (no super().__init__), E9998 (I/O) and E9999 (imports) are off."""
    run = pyta.run(real_run_tool({"leftover.py": COURSE_DISABLED}), CONFIG, ["leftover.py"])
    found = {message.id for message in run.files["leftover.py"].messages}
    assert not found & {"W0511", "W0105", "W0231", "E9998", "E9999"}, found


@pytest.mark.sandbox
def test_python_ta_refuses_a_file_with_a_pylint_comment(real_run_tool):
    source = "# pylint: disable=line-too-long\n" + (REFERENCE / "strategy.py").read_text()
    run = pyta.run(real_run_tool({"strategy.py": source}), CONFIG, ["strategy.py"])
    assert 'pylint:" found in comment' in (run.files["strategy.py"].refused or "")
