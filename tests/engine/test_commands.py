"""Commands found by looking: each module of graders/commands adds one `grade` command."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from graders.cli import cli
from graders.packs import get_pack

PACK = get_pack("altnim")


def test_every_command_module_is_registered():
    folder = Path(__file__).parents[2] / "graders" / "commands"
    modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    assert modules <= set(cli.commands)


def test_similarity_lists_the_near_copy_and_not_the_starter(tmp_path: Path):
    samples = PACK.fixtures_dir / "submissions"
    for name in ("correct", "do_nothing"):
        shutil.copytree(samples / name, tmp_path / name)
    shutil.copytree(samples / "correct", tmp_path / "copycat")
    result = CliRunner().invoke(cli, ["similarity", "altnim", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "copycat" in lines[0] and "correct" in lines[0]
