"""The altNim pack end to end: reference, bare template, and the student pre-check."""

from __future__ import annotations

import shutil
from pathlib import Path

from graders.batch import BatchRequest, grade_batch
from graders.cli import main
from graders.packs import get_pack

PACK = get_pack("altnim")


def test_bare_template_scores_zero_without_grader_error(tmp_path: Path):
    student = tmp_path / "bare"
    student.mkdir()
    shutil.copyfile(
        PACK.templates_dir / "myAltNimFunctions.template", student / "myAltNimFunctions.py"
    )
    [result] = grade_batch(BatchRequest(pack=PACK, sources=[student])).results
    assert result.status == "graded"
    assert result.total == 0
    assert {v.rule for v in result.violations} == {"header-block"}


def test_precheck_passes_on_the_filled_in_template(starter_kit: Path, capsys):
    shutil.copyfile(
        PACK.reference_dir / "myAltNimFunctions.py", starter_kit / "myAltNimFunctions.py"
    )
    assert main(["check", str(starter_kit)]) == 0
    assert "All public tests pass" in capsys.readouterr().out


def test_precheck_fails_naming_the_rule_and_the_test(starter_kit: Path, capsys):
    mistake = PACK.fixtures_dir / "submissions" / "extra_import" / "myAltNimFunctions.py"
    shutil.copyfile(mistake, starter_kit / "myAltNimFunctions.py")
    code = main(["check", str(starter_kit)])
    printed = capsys.readouterr().out
    assert code == 1
    assert "forbidden-import" in printed and "import math" in printed


def test_precheck_names_the_failing_public_test(starter_kit: Path, capsys):
    mistake = PACK.fixtures_dir / "submissions" / "wrong_eval_sign" / "myAltNimFunctions.py"
    shutil.copyfile(mistake, starter_kit / "myAltNimFunctions.py")
    assert main(["check", str(starter_kit)]) == 1
    printed = capsys.readouterr().out
    assert "FAIL test_out_script" in printed
    assert "differs at line" in printed


def test_precheck_never_reads_hidden_material(starter_kit: Path, monkeypatch):
    shutil.copyfile(
        PACK.reference_dir / "myAltNimFunctions.py", starter_kit / "myAltNimFunctions.py"
    )
    hidden = [PACK.reference_dir, PACK.fixtures_dir]
    real_open = Path.open

    def guarded_open(self: Path, *args, **kwargs):
        assert not any(part in self.resolve().parents for part in hidden), f"read {self}"
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", guarded_open)
    assert main(["check", str(starter_kit)]) == 0
