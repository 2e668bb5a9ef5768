"""The `grade` command line, run in-process."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from graders.cli import main
from graders.pack import get_pack
from graders.sandbox import Isolation

PACK = get_pack("altnim")
SAMPLES = PACK.fixtures_dir / "submissions"


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    folder = tmp_path / "batch"
    for name in ("correct", "extra_import", "syntax_error"):
        shutil.copytree(SAMPLES / name, folder / name)
    return folder


def test_grading_writes_every_report_and_exits_zero_when_students_fail(batch, tmp_path, capsys):
    out = tmp_path / "reports"
    assert main([str(batch), "--out", str(out)]) == 0
    assert (out / "index.html").is_file()
    rows = list(csv.DictReader((out / "marks.csv").open()))
    assert {row["student"]: row["total"] for row in rows} == {
        "correct": "100",
        "extra_import": "85",
        "syntax_error": "0",
    }
    for name in ("correct", "extra_import", "syntax_error"):
        data = json.loads((out / "students" / f"{name}.json").read_text())
        assert data["status"] == "graded"
        assert (out / "students" / f"{name}.html").is_file()
    printed = capsys.readouterr()
    assert "Isolation:" in printed.err and "extra_import" in printed.out


def test_a_second_run_reuses_unchanged_results_and_regrades_changed(batch, tmp_path, capsys):
    out = tmp_path / "reports"
    assert main([str(batch), "--out", str(out)]) == 0
    target = batch / "extra_import" / "myAltNimFunctions.py"
    target.write_text(target.read_text().replace("import math\n", ""))
    capsys.readouterr()
    assert main([str(batch), "--out", str(out)]) == 0
    assert "reused 2 unchanged" in capsys.readouterr().err.replace("\n", " ")
    rows = {row["student"]: row["total"] for row in csv.DictReader((out / "marks.csv").open())}
    assert rows["extra_import"] != "85"


def test_unknown_assignment_is_a_clear_usage_error(batch, capsys):
    assert main([str(batch), "--assignment", "chess"]) == 2
    assert "no assignment 'chess'; known assignments:" in capsys.readouterr().err


def test_undetectable_assignment_asks_for_one(tmp_path, capsys):
    (tmp_path / "s1").mkdir()
    (tmp_path / "s1" / "essay.txt").write_text("hello")
    assert main([str(tmp_path)]) == 2
    assert "--assignment" in capsys.readouterr().err


def test_golden_check_passes_for_current_files(capsys):
    assert main(["golden", "--check", "altnim"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_explain_and_rules_document_themselves(capsys):
    assert main(["explain"]) == 0
    assert "limits.wall_seconds: Wall-clock limit" in capsys.readouterr().out
    assert main(["rules"]) == 0
    assert "forbidden-import:" in capsys.readouterr().out


def test_parallel_jobs_keep_students_whose_files_sit_in_a_subfolder(batch, tmp_path):
    nested = batch / "dana" / "A2"
    nested.mkdir(parents=True)
    shutil.copyfile(SAMPLES / "correct" / "myAltNimFunctions.py", nested / "myAltNimFunctions.py")
    out = tmp_path / "reports"
    assert main([str(batch), "--out", str(out), "--jobs", "2"]) == 0
    rows = {row["student"]: row for row in csv.DictReader((out / "marks.csv").open())}
    assert rows["dana"]["total"] == "100" and rows["dana"]["status"] == "graded"


def test_grading_refuses_the_fallback_unless_asked_for(batch, tmp_path, monkeypatch, capsys):
    # issue 13 point 11: without bubblewrap `grade` graded with resource limits only, after one
    # console line; now it stops with the command that installs it, unless --isolation rlimits.
    monkeypatch.setenv("GRADER_ISOLATION", "rlimits")
    out = tmp_path / "reports"
    assert main([str(batch), "--out", str(out)]) == 2
    said = capsys.readouterr().err.replace("\n", " ")
    assert "sudo apt-get install -y bubblewrap" in said and "--isolation rlimits" in said
    assert not out.exists()
    assert main([str(batch / "correct"), "-a", "altnim", "--isolation", "rlimits",
                 "--out", str(out)]) == 0
    assert json.loads((out / "students" / "correct.json").read_text())["isolation"] == "rlimits"


def test_the_student_precheck_may_fall_back_and_says_so(batch, monkeypatch, capsys):
    monkeypatch.setenv("GRADER_ISOLATION", "rlimits")
    assert main(["check", str(batch / "correct"), "-a", "altnim"]) == 0
    assert "resource limits only" in capsys.readouterr().err.replace("\n", " ")


def test_setup_stops_with_the_command_that_installs_bubblewrap(monkeypatch, capsys):
    monkeypatch.setattr("graders.commands.setup.detect_isolation", lambda: Isolation.RLIMITS)
    monkeypatch.setattr("graders.commands.setup.setup_tools", lambda packs, force: [])
    monkeypatch.delenv("GRADER_ISOLATION", raising=False)
    assert main(["setup"]) == 2
    assert "sudo apt-get install -y bubblewrap" in capsys.readouterr().err.replace("\n", " ")


def test_explain_an_assignment_lists_criteria_and_rules_with_their_handout(capsys):
    assert main(["explain", "altnim"]) == 0
    printed = capsys.readouterr().out
    for criterion in PACK.declaration.criteria:
        assert f"  {criterion.id} ({criterion.points:g} points): {criterion.title}" in printed
    for rule in PACK.declaration.rules:
        assert f"  {rule.name} (-{rule.deduction:g} points)" in printed
    assert printed.count("      handout: ") == (
        len(PACK.declaration.criteria) + len(PACK.declaration.rules)
    )


def test_explain_names_the_causes_a_criterion_charges_once(capsys):
    assert main(["explain", "pnt"]) == 0
    printed = capsys.readouterr().out
    assert "      charged once each: an extra line after the output (extra-line-after) -3" \
        in printed
    assert main(["explain"]) == 0
    assert "criteria[].causes: Kind of difference -> points it costs, ONCE" in \
        capsys.readouterr().out


def test_an_interrupt_exits_130_with_one_line(batch, monkeypatch, capsys):
    def interrupted(request):
        raise KeyboardInterrupt

    monkeypatch.setattr("graders.commands.run.grade_batch", interrupted)
    assert main([str(batch), "--out", "unused"]) == 130
    assert "interrupted; the reports written so far are kept" in capsys.readouterr().err


def test_an_unknown_layout_or_zone_is_a_usage_error(batch, capsys):
    assert main([str(batch), "--layout", "blackboard"]) == 2
    assert main([str(batch), "--timezone", "Mars/Olympus"]) == 2
    assert "unknown time zone" in capsys.readouterr().err


def test_a_class_zip_from_an_lms_is_many_students_not_one(tmp_path, capsys):
    export = tmp_path / "export"
    for number, name in enumerate(("correct", "extra_import"), start=1):
        shutil.copytree(SAMPLES / name, export / f"Student {name}_{number}_assignsubmission_file_")
    archive = shutil.make_archive(str(tmp_path / "class"), "zip", export)
    out = tmp_path / "reports"
    assert main([archive, "--out", str(out)]) == 0
    rows = {row["student"]: row["total"] for row in csv.DictReader((out / "marks.csv").open())}
    assert rows == {"Student correct (1)": "100", "Student extra_import (2)": "85"}


@pytest.mark.parametrize("inside", [".", "reports"])
def test_reports_inside_the_folder_being_graded_are_refused(batch, capsys, inside):
    """A second run would grade the reports' own folders (students/, feedback/) as students."""
    out = batch / inside
    assert main([str(batch), "--out", str(out)]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert "the submissions being graded" in said and "--out" in said
    assert sorted(p.name for p in batch.iterdir()) == ["correct", "extra_import", "syntax_error"]


def test_a_run_of_part_of_the_class_names_who_left_the_report_folders_list(batch, tmp_path,
                                                                           capsys):
    out = tmp_path / "reports"
    assert main([str(batch), "--out", str(out)]) == 0
    part = tmp_path / "late"
    shutil.copytree(batch / "correct", part / "correct")
    capsys.readouterr()
    assert main([str(part), "--out", str(out)]) == 0
    printed = capsys.readouterr()
    said = " ".join((printed.out + printed.err).split())
    assert "No longer in" in said and "extra_import, syntax_error" in said, said


def test_a_due_date_for_a_pack_without_a_late_rule_is_said_to_change_nothing(batch, tmp_path,
                                                                              capsys):
    assert not PACK.declaration.late.percent_per_hour  # altNim's handout has no late rule
    assert main([str(batch), "--out", str(tmp_path / "r"), "--due", "2024-10-31T23:59:00-0230"]
                ) == 0
    printed = capsys.readouterr()
    said = " ".join((printed.out + printed.err).split())
    assert "altnim has no late rule" in said and "change no mark" in said
