"""The altNim pack end to end: what its bare template and its pre-check say (what every pack
must do is in tests/packs/test_every_pack.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from graders.cli import main
from graders.pack import get_pack

PACK = get_pack("altnim")


def test_bare_template_scores_zero_without_grader_error(reference_and_bare):
    _, result = reference_and_bare(PACK.id)
    assert result.status == "graded"
    assert result.total == 0
    assert {v.rule for v in result.violations} == {"header-block"}


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
