"""The tippy pack end to end: reference, bare starter kit, due date, and the pre-check."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

from graders.cli import main
from graders.marking import late_deduction
from graders.pack import get_pack

PACK = get_pack("tippy")
SUBMITTED = ["tippy_game_state.py", "tippy_move.py", "strategy_minimax.py", "game_view.py"]


def test_reference_solution_scores_full_marks(reference_and_bare):
    result, _ = reference_and_bare(PACK.id)
    assert result.status == "graded"
    assert result.total == PACK.declaration.max_points, [t.message for t in result.tests
                                                         if t.outcome != "passed"]


def test_bare_starter_kit_scores_only_its_clean_style(reference_and_bare):
    _, result = reference_and_bare(PACK.id)
    assert result.status == "graded", result.grader_errors
    assert {m.id: m.earned for m in result.criteria} == {
        "state": 0, "move": 0, "minimax": 0, "game_view": 0, "pep8": 5}
    # The starter's menus lack the student's entries: two 0-point notices, nothing else.
    assert sorted((v.rule, v.message.split(" is not")[0], v.deduction)
                  for v in result.violations) == [
        ("entry-name", "`game_state['t']`", 0.0), ("entry-name", "`strategy['m']`", 0.0)]
    assert all("Write" in t.message or "game_view" in t.name
               for t in result.tests if t.outcome == "failed")


def test_the_declaration_follows_the_handout():
    points = {c.id: c.points for c in PACK.declaration.criteria}
    assert points == {"state": 45, "move": 5, "minimax": 40, "game_view": 5, "pep8": 5}
    assert PACK.declaration.late.percent_per_hour == 5
    assert PACK.declaration.late.due.isoformat() == "2015-03-05T22:00:00-05:00"


def test_late_rule_from_the_pack_or_a_due_date_given_to_grade():
    submitted = datetime.fromisoformat("2015-03-06T00:10:00-05:00")  # the late_2h10 sample
    from_pack = late_deduction(PACK, submitted, None, 100.0)
    assert from_pack is not None and from_pack.points == 15.0  # 2 h 10 min: 3 started hours
    override = datetime.fromisoformat("2015-03-06T00:00:00-05:00")  # `grade run --due ...`
    assert late_deduction(PACK, submitted, override, 80.0).points == 4.0  # 1 hour of 80
    assert late_deduction(PACK, override, None, 80.0).points == 8.0  # exactly 2 hours late
    assert late_deduction(PACK, PACK.declaration.late.due, None, 80.0) is None  # on time
def test_precheck_passes_on_the_reference(starter_kit: Path, capsys):
    for name in SUBMITTED:
        shutil.copyfile(PACK.reference_dir / name, starter_kit / name)
    assert main(["check", str(starter_kit)]) == 0
    assert "All public tests pass" in capsys.readouterr().out


def test_precheck_names_the_failing_test_and_the_broken_rule(starter_kit: Path, capsys):
    for name in SUBMITTED:
        shutil.copyfile(PACK.reference_dir / name, starter_kit / name)
    sample = PACK.fixtures_dir / "submissions"
    shutil.copyfile(sample / "no_tie" / "tippy_game_state.py",
                    starter_kit / "tippy_game_state.py")
    shutil.copyfile(sample / "no_tie" / "tippy_move.py", starter_kit / "tippy_move.py")
    shutil.copyfile(sample / "pep8_violations" / "strategy_minimax.py",
                    starter_kit / "strategy_minimax.py")
    assert main(["check", str(starter_kit)]) == 1
    printed = capsys.readouterr().out
    assert "FAIL test_state_tie_on_a_full_board" in printed
    assert "pep8" in printed and "E501" in printed
