"""The engine proves every exclusion (`equivalent`, `handout-silent`) before it believes it: real
runs on altnim (the fastest pack), the comparison of answers, the declarations' form, what the
score says it covers, and the bundled unit tests against what the pack gives full marks."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from graders.bundled_tests import bundled_test_problems
from graders.errors import DeclarationError
from graders.mutation import MutationRun, all_mutants, grade_mutants, plan
from graders.mutation.claims import refusal
from graders.mutation.equivalents import SILENT, Claim, coverage, list_label, load_equivalents
from graders.observe import differences
from graders.pack import Pack, get_pack
from graders.results import SubmissionResult

PACK = get_pack("altnim")
MUTANTS = {(m.operator, m.before): m for m in all_mutants(PACK)}
# Breaks getRemovals: testAltNim.py prints other removals from its second line on.
WRONG_REMOVALS = MUTANTS[("ReplaceComparisonOperator_Eq_NotEq",
                          "if oddFirst == state.getStartOdd():")]
TRULY_EQUIVALENT = "7f4ccb3c24"  # the pack's one listed equivalent


def _pack(tmp_path: Path, text: str) -> Pack:
    folder = tmp_path / "altnim"
    folder.mkdir(parents=True)
    (folder / "equivalent_mutants.toml").write_text(text, encoding="utf-8")
    shutil.copyfile(PACK.driver, folder / "driver.py")  # a probe runs the pack's driver
    return dataclasses.replace(PACK, dir=folder)


def _checked(pack: Pack) -> MutationRun:
    """Only the declared mutants and the control are graded."""
    run, _ = plan(pack)
    return grade_mutants(pack, run, [])


def test_an_equivalent_claim_on_a_mutant_that_differs_is_refused_naming_the_first_difference(
        tmp_path):
    pack = _pack(tmp_path, f'[[equivalent]]\nid = "{WRONG_REMOVALS.id}"\nreason = "claimed"\n'
                           f'[[equivalent]]\nid = "{TRULY_EQUIVALENT}"\nreason = "it is"\n')
    run = _checked(pack)
    assert [(m.id, why) for m, why in run.equivalent] == [(TRULY_EQUIVALENT, "it is")]
    [(mutant, why)] = run.refused
    assert mutant == WRONG_REMOVALS
    assert why.startswith("it is not equivalent: program('python3', 'testAltNim.py'): "
                          "stdout line 2 is ")
    assert "= [-2, -4]\" where the reference gives " in why and why.count("[-1, -3]") == 1
    assert run.scored == 0 and run.record()["refused"] == 1


def test_a_handout_silent_entry_whose_named_difference_is_not_the_actual_one_is_refused(
        tmp_path):
    pack = _pack(tmp_path, f'[[handout-silent]]\nid = "{WRONG_REMOVALS.id}"\nreason = "r"\n'
                           'handout = "the words"\ndiffers = ["minimax"]\n'
                           f'[[handout-silent]]\nid = "{TRULY_EQUIVALENT}"\nreason = "r"\n'
                           'handout = "the words"\ndiffers = ["program"]\n')
    refused = dict((m.id, why) for m, why in _checked(pack).refused)
    assert refused[WRONG_REMOVALS.id].startswith(
        "it differs otherwise than named (minimax): program('python3', 'testAltNim.py'): ")
    assert refused[TRULY_EQUIVALENT].startswith(
        "it answers exactly as the reference on every case the pack asks (and every probe): "
        "it is equivalent, not handout-silent")


def test_a_named_difference_shown_by_a_probe_holds_until_the_marks_say_otherwise(tmp_path):
    # Every answer the mutant changes is named, the probe's too; it still loses marks when
    # graded, so the claim is refused for that, and only that.
    named = '["program", "removals", "apply", "is_leaf", "evaluate", "minimax"]'
    pack = _pack(tmp_path, f'[[handout-silent]]\nid = "{WRONG_REMOVALS.id}"\nreason = "r"\n'
                           f'handout = "the words"\ndiffers = {named}\n'
                           'probe = [{ op = "removals", args = [10, true, 0] }]\n')
    [(_, why)] = _checked(pack).refused
    assert why.startswith("it loses marks when graded (") and "the tests catch it" in why
    unnamed = _pack(tmp_path / "unnamed", f'[[handout-silent]]\nid = "{WRONG_REMOVALS.id}"\n'
                    'reason = "r"\nhandout = "w"\ndiffers = ["program"]\n'
                    'probe = [{ op = "removals", args = [10, true, 0] }]\n')
    [(_, why)] = _checked(unnamed).refused
    assert why.startswith("it differs otherwise than named (program): ")


def _result(total: float) -> SubmissionResult:
    return SubmissionResult(student="m", assignment="x", assignment_title="", status="graded",
                            isolation="rlimits", total=total, max_total=100)


def _entry(op: str, answer: object, *args: object) -> dict:
    return {"at": "student", "op": op, "args": list(args), "kwargs": {}, "stdin": None,
            "answer": answer}


def test_differences_come_in_the_order_the_reference_was_asked_down_to_the_key():
    reference = [_entry("trace", {"value": [{"board": "A - B", "rough": 1}]}, 1),
                 _entry("moves", {"value": ["A"]}, 1)]
    mutant = [_entry("moves", {"value": ["B"]}, 1),
              _entry("trace", {"value": [{"board": "A-B", "rough": 1}]}, 1)]
    found = differences(reference, mutant)
    assert [(d.where, d.path) for d in found] == [("trace.value.board", "value[0].board"),
                                                  ("moves.value", "value[0]")]
    assert found[0].describe() == ('trace(1): value[0].board is "A-B" where the reference '
                                   'gives "A - B"')


def test_a_silent_claim_holds_when_every_difference_is_the_named_one():
    reference = [_entry("trace", {"value": [{"board": "A - B\n / \\", "rough": 1}]}, 1)]
    mutant = [_entry("trace", {"value": [{"board": "A-B\n\\ /", "rough": 1}]}, 1)]
    found = differences(reference, mutant)
    claim = Claim(SILENT, "spacing", handout="token by token", differs=("trace.value.board",),
                  ignoring=" /\\")
    assert refusal(claim, _result(100), 100, found) is None
    assert "it loses marks when graded (90/100)" in str(refusal(claim, _result(90), 100, found))
    narrow = dataclasses.replace(claim, ignoring=" ")
    assert str(refusal(narrow, _result(100), 100, found)).startswith(
        "it differs otherwise than named (trace.value.board, ignoring ' '): trace(1): "
        "value[0].board line 1 is")


def test_declarations_name_their_kind_and_what_a_silent_one_relies_on(tmp_path):
    pack = _pack(tmp_path, '[[block]]\nfile = "myAltNimFunctions.py"\nblock = "eval"\n'
                           'kind = "handout-silent"\nhandout = "h"\ndiffers = ["evaluate"]\n'
                           'except = ["abc"]\nreason = "r"\n')
    found = load_equivalents(pack)
    assert found.blocks[("myAltNimFunctions.py", "eval")] == Claim(
        SILENT, "r", handout="h", differs=("evaluate",))
    assert found.excepted == {"abc"}
    bad = _pack(tmp_path / "bad", '[[handout-silent]]\nid = "x"\nreason = "r"\n'
                                  'handout = "h"\n')
    with pytest.raises(DeclarationError, match="names the answers that differ"):
        load_equivalents(bad)


def test_a_block_entry_leaves_out_the_mutants_it_excepts(tmp_path):
    block = [m for m in all_mutants(PACK) if m.line in range(42, 49)]
    pack = _pack(tmp_path, '[[block]]\nfile = "myAltNimFunctions.py"\nblock = "eval"\n'
                           f'except = ["{block[0].id}"]\nreason = "r"\n')
    run, chosen = plan(pack)
    assert block[0] in chosen and block[0] not in [m for m, _ in run.declared]
    assert {m for m, _ in run.declared} == set(block[1:])


def test_the_score_says_what_it_covers(tmp_path):
    run = MutationRun(pack="altnim", generated=10, limit=4)
    run.caught, run.survived = all_mutants(PACK)[:3], all_mutants(PACK)[3:4]
    run.equivalent = [(all_mutants(PACK)[5], "e")]
    run.silent = [(all_mutants(PACK)[6], "s"), (all_mutants(PACK)[7], "s")]
    record = run.record()
    assert coverage(record) == ("caught 3 of 4 scored (1 equivalent, 2 handout-silent), "
                                "sample of 4 of 7 (95 % interval 30.1-95.4 %)")
    run.limit = None
    assert coverage(run.record()).endswith("handout-silent), all")
    pack = dataclasses.replace(PACK, dir=tmp_path)
    assert list_label(pack) == "mutants: not measured"


def test_record_refuses_a_sample_as_a_total(monkeypatch, capsys):
    from graders.cli import main
    from graders.commands import selfcheck

    def grade(pack, run, mutants, *, jobs=1, progress=None):
        run.caught += mutants
        run.declared = []
        return run
    monkeypatch.setattr(selfcheck, "grade_mutants", grade)
    written: list[dict] = []
    monkeypatch.setattr(selfcheck, "write_record", lambda pack, rec: written.append(rec) or "m")
    assert main(["selfcheck", "altnim", "--mutants", "--no-samples", "--limit", "3",
                 "--record"]) == 0
    out = capsys.readouterr().out
    assert "not recorded: a sample of 3 of " in out and "add --as-sample" in out
    assert not written
    assert main(["selfcheck", "altnim", "--mutants", "--no-samples", "--limit", "3",
                 "--record", "--as-sample"]) == 0
    assert written[0]["limit"] == 3 and written[0]["interval"][1] == 100.0


STRICT = '''
import unittest

from game_interface import playable_games


class TestRough(unittest.TestCase):
    def test_pinned(self):
        import builtins
        builtins.input = lambda prompt='': '1'
        game = playable_games['h'](True)
        self.assertEqual(game.current_state.rough_outcome(), 1)
'''


def test_a_bundled_test_stricter_than_the_pack_is_refused(tmp_path):
    pack = get_pack("stonehenge")
    assert bundled_test_problems(pack) == []
    root = tmp_path / "root"
    for kind in ("reference_solutions", "fixtures"):
        (root / kind).mkdir(parents=True)
        (root / kind / "stonehenge").symlink_to(pack.root / kind / "stonehenge")
    shutil.copytree(pack.templates_dir, root / "student_templates" / "stonehenge")
    (root / "student_templates" / "stonehenge" / "stonehenge_unittest.py").write_text(STRICT)
    problems = bundled_test_problems(dataclasses.replace(pack, root=root))
    # every full-marks sample whose rough_outcome is a fraction (the handout allows one)
    assert problems and all("FAIL: test_pinned" in problem for problem in problems)
    assert any(problem.startswith("the bundled minimax_unittest, stonehenge_unittest fail on "
                                  "sample rough_outcome_fractional, which the pack gives full "
                                  "marks: FAIL: test_pinned") for problem in problems)
