"""Issue 28 item 4: building a kit records only what the public tests ask the hidden helpers,
from ONE pre-check run on the reference solution; it never grades a sample submission and
never runs python_ta (before: one pre-check, python_ta included, on the reference, the bare
starter and every sample: 2 + samples runs per pack)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from graders.kit import record
from graders.kit.builder import write_tree
from graders.pack import get_pack
from tests.kit.conftest import PACKS


@pytest.mark.parametrize("pack_id", PACKS)
def test_a_kit_build_runs_the_pre_check_once_on_the_reference_only(
        pack_id, monkeypatch, tmp_path):
    pack = get_pack(pack_id)
    kit, _ = write_tree(pack, tmp_path)
    runs: list[Path] = []

    def counted(kit: Path, source: Path, scratch: Path) -> dict:
        runs.append(source)
        return {}

    monkeypatch.setattr(record, "_run", counted)
    stubs = [p for p in (kit / "_precheck").rglob("*.py")
             if "kit_stub import helper" in p.read_text("utf-8")]
    assert record.record(pack, kit) == len(runs)
    assert runs == ([pack.reference_dir] if stubs else [])
    samples = pack.fixtures_dir / "submissions"
    assert not [run for run in runs if run.is_relative_to(samples)]


def test_while_recording_no_tool_starts(kit_zip, tmp_path):
    """stonehenge's style test runs python_ta: while `grade kit` records, the kit's tool
    refuses to start (the test is an error of the recording run, thrown away)."""
    with zipfile.ZipFile(kit_zip("stonehenge")) as archive:
        archive.extractall(tmp_path)
    kit = tmp_path / "stonehenge-kit"
    ask = ("from _precheck.main import load_pack\nfrom _precheck.tools import tool_of\n"
           "pack = load_pack()\n"
           "print([tool_of(pack, t.name).problem() for t in pack.declaration.tools])")
    env = dict(os.environ, PRECHECK_RECORD=str(tmp_path / "answers.json"))
    done = subprocess.run([sys.executable, "-c", ask], cwd=kit, env=env, capture_output=True,
                          text=True, check=True)
    refusals = json.loads(done.stdout.replace("'", '"'))
    assert refusals and all("no tool runs while `grade kit` records" in r for r in refusals)


@pytest.mark.parametrize("pack_id", ["game_of_nim", "stonehenge", "tippy"])
def test_the_recorded_answers_come_from_the_reference_run(pack_id, kit_zip):
    with zipfile.ZipFile(kit_zip(pack_id)) as archive:
        table = json.loads(archive.read(f"{pack_id}-kit/_precheck/recorded.json"))
    assert table and all(entry["calls"] or entry["constants"] for entry in table.values())
