"""Pack tools: declared in assignment.toml, installed by `grade setup`, mounted read-only in the
sandbox; grading refuses to start without them, the student pre-check says what to install."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graders.batch import BatchRequest, grade_batch
from graders.cli import main
from graders.errors import GraderError
from graders.pack import get_pack
from graders.pack_specs import ToolSpec
from graders.sandbox import Limits, Sandbox
from graders.sandbox.isolation import Isolation, build_launch, sandbox_python
from graders.tools import STAMP, Tool, tool_of, tools_of, unready_tools

STONEHENGE = get_pack("stonehenge")
CORRECT = STONEHENGE.fixtures_dir / "submissions" / "correct"


def fake_tool(home: Path, requirements: list[str] | None = None) -> Tool:
    spec = ToolSpec(name="lint", requirements=requirements or ["lintpkg==1.0"], wall_seconds=7.5)
    return Tool(spec, "demo", home)


def write_stamp(home: Path, requirements: list[str], python: str | None = None) -> None:
    home.mkdir(parents=True, exist_ok=True)
    stamp = {"requirements": requirements, "python": python or sandbox_python(),
             "installed": {"lintpkg": "1.0"}}
    (home / STAMP).write_text(json.dumps(stamp))


def test_a_tool_without_an_environment_names_the_setup_command(tmp_path):
    problem = fake_tool(tmp_path / "lint").problem()
    assert problem is not None
    assert "not installed" in problem and "`grade setup demo`" in problem


def test_a_tool_installed_for_other_pins_is_not_ready(tmp_path):
    write_stamp(tmp_path / "lint", ["lintpkg==0.9"])
    problem = fake_tool(tmp_path / "lint").problem()
    assert problem is not None and "lintpkg==0.9" in problem and "lintpkg==1.0" in problem


def test_a_tool_built_for_another_interpreter_is_not_ready(tmp_path):
    write_stamp(tmp_path / "lint", ["lintpkg==1.0"], python="/opt/other/python3")
    assert "another interpreter" in (fake_tool(tmp_path / "lint").problem() or "")


def test_a_tool_whose_stamp_matches_is_ready_and_knows_its_versions(tmp_path):
    write_stamp(tmp_path / "lint", ["lintpkg==1.0"])
    tool = fake_tool(tmp_path / "lint")
    assert tool.problem() is None
    assert tool.versions() == {"lintpkg": "1.0"}


def test_a_tool_has_its_own_time_and_memory_limits(tmp_path):
    limits = fake_tool(tmp_path).limits(Limits(wall_seconds=10, cpu_seconds=10, processes=16))
    assert (limits.wall_seconds, limits.cpu_seconds, limits.processes) == (7.5, 8, 16)
    assert limits.memory_mb == 2048


def test_the_tools_folder_follows_the_environment_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_TOOLS_DIR", str(tmp_path))
    [tool] = tools_of(STONEHENGE)
    assert tool.home == tmp_path / "python_ta"
    assert tool_of(STONEHENGE, "python_ta") == tool
    with pytest.raises(GraderError, match="does not declare it"):
        tool_of(STONEHENGE, "black")


def test_a_tool_is_mounted_read_only_at_its_own_path(tmp_path):
    launch = build_launch(["/tools/lint/bin/python", "-V"], tmp_path, Limits(),
                          Isolation.BUBBLEWRAP, tools={"lint": tmp_path / "env"})
    argv = launch.argv
    bind = argv.index("--ro-bind", argv.index(str(tmp_path / "env")) - 1)
    assert argv[bind:bind + 3] == ["--ro-bind", str(tmp_path / "env"), "/tools/lint"]
    assert argv[argv.index("--dir") - 2:argv.index("--dir") + 2] == [
        "--perms", "0755", "--dir", "/tools"]


def test_without_bubblewrap_the_tool_runs_from_its_own_folder(tmp_path):
    launch = build_launch(["/tools/lint/bin/python", "-V"], tmp_path, Limits(),
                          Isolation.RLIMITS, tools={"lint": tmp_path / "env"})
    assert launch.argv[0] == str(tmp_path / "env" / "bin" / "python")


@pytest.mark.sandbox
def test_the_sandbox_uid_can_run_the_installed_tool():
    tool = tool_of(STONEHENGE, "python_ta")
    assert tool.problem() is None, tool.problem()
    sandbox = Sandbox()
    try:
        run = sandbox.run(CORRECT, [tool.python, "-I", "-c", "import python_ta, sys; "
                                    "print(python_ta.__version__, sys.prefix)"],
                          tool.limits(STONEHENGE.limits), tools={tool.name: tool.home})
    finally:
        sandbox.close()
    assert run.exit_code == 0, run.stderr
    assert run.stdout.split() == [tool.versions()["python-ta"], "/tools/python_ta"]


def test_grading_refuses_to_start_without_a_tool(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_TOOLS_DIR", str(tmp_path))
    assert unready_tools(STONEHENGE)
    with pytest.raises(GraderError, match="grade setup stonehenge"):
        grade_batch(BatchRequest(pack=STONEHENGE, sources=[CORRECT], out_dir=tmp_path / "r"))
    assert not (tmp_path / "r").exists()


def test_the_precheck_runs_without_a_tool_and_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_TOOLS_DIR", str(tmp_path))
    outcome = grade_batch(BatchRequest(pack=STONEHENGE, sources=[CORRECT], public_only=True))
    [result] = outcome.results
    style = [t for t in result.tests if t.name.startswith("test_style")]
    assert style and all(t.outcome == "error" for t in style)
    assert all("grade setup stonehenge" in t.message for t in style)
    assert any(t.outcome == "passed" for t in result.tests)
    assert result.status == "grader-error"


def test_setup_reports_a_ready_tool_without_reinstalling(capsys):
    tool = tool_of(STONEHENGE, "python_ta")
    before = (tool.home / STAMP).stat().st_mtime_ns
    assert main(["setup", "stonehenge"]) == 0
    assert "python_ta (python-ta==" in capsys.readouterr().out
    assert (tool.home / STAMP).stat().st_mtime_ns == before


def test_a_failed_install_is_a_grader_error_with_pips_words(tmp_path):
    tool = fake_tool(tmp_path / "lint", ["graders-no-such-package-anywhere==0.0.1"])
    with pytest.raises(GraderError, match="could not install the requirements"):
        tool.install()
    assert tool.problem() is not None
