"""The PNT pack end to end: bare template, hidden inputs, and the pre-check's message.

The pre-check passing on the reference without reading hidden material is
tests/packs/test_every_pack.py's, as for every pack."""

from __future__ import annotations

import shutil
from pathlib import Path

from graders.cli import main
from graders.pack import get_pack
from graders.packs.pnt.checks import HIDDEN_NAMES, hidden_cases
from graders.packs.pnt.generate import case_file

PACK = get_pack("pnt")


def test_bare_template_scores_zero_without_grader_error(reference_and_bare):
    _, result = reference_and_bare(PACK.id)
    assert result.status == "graded" and not result.grader_errors
    assert result.total == 0
    assert "NotImplementedError" in result.tests[0].details["stderr"]


def test_hidden_generated_cases_are_reproducible():
    text = (PACK.fixtures_dir / "inputs" / "hidden.txt").read_text()
    words = text.splitlines()[0].split()
    seed = int(words[words.index("--seed") + 1])
    count = int(words[words.index("--count") + 1])
    assert text == case_file(seed, count, prefix="hidden")


def test_hidden_case_names_are_the_files_cases():
    # test_pnt.py is parametrized with the names; the fixture reads the cases when grading.
    assert list(hidden_cases(PACK)) == HIDDEN_NAMES
    assert len(HIDDEN_NAMES) >= 10


def test_precheck_names_the_failing_case(starter_kit: Path, capsys):
    mistake = PACK.fixtures_dir / "submissions" / "no_pruning" / "pnt.py"
    shutil.copyfile(mistake, starter_kit / "pnt.py")
    assert main(["check", str(starter_kit)]) == 1
    printed = capsys.readouterr().out
    assert "test_visited" in printed and "expected 12, got 13" in printed
