"""Mutation testing of packs (`grade selfcheck ID --mutants`): the operators, a tiny real run
on altnim, and the command's exit codes and wording."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import pytest

from graders import mutation
from graders.cli import main
from graders.commands import selfcheck
from graders.mutation import MutationRun, all_mutants, grade_mutants, plan
from graders.mutation.equivalents import list_label, load_equivalents, write_record
from graders.mutation.mutants import block_lines, mutants_of
from graders.outcomes import BatchOutcome
from graders.pack import Pack, get_pack
from graders.results import SubmissionResult
from graders.sandbox import Isolation

PACK = get_pack("altnim")

SOURCE = '''\
"""A module docstring."""


def pick(xs, limit):
    """Return the first x under limit, else -1."""
    total = 0
    for x in xs:
        total += x
        if x < limit and x in xs:
            return x
        else:
            print("skip")
    return -1 if total else 2 * total


if __name__ == "__main__":
    print(pick([1], True))
'''


def _changes(source: str, file: str = "m.py") -> set[tuple[str, str, str]]:
    return {(m.operator, m.before, m.after) for m in mutants_of(source, file)}


def test_operators_make_the_mutants_they_should():
    made = _changes(SOURCE)
    assert ("ReplaceComparisonOperator_Lt_LtE", "if x < limit and x in xs:",
            "if x <= limit and x in xs:") in made
    assert ("ReplaceAndWithOr", "if x < limit and x in xs:", "if x < limit or x in xs:") in made
    assert ("SwapIn", "if x < limit and x in xs:", "if x < limit and x not in xs:") in made
    assert ("SwapAugmentedAssignment", "total += x", "total -= x") in made
    assert ("ReplaceBinaryOperator_Mul_Div", "return -1 if total else 2 * total",
            "return -1 if total else 2 / total") in made
    assert ("SwapIfElse", "return -1 if total else 2 * total",
            "return 2 * total if total else -1") in made
    assert ("RemoveStatement", "total = 0", "pass") in made
    assert ("ReplaceTrueWithFalse", "print(pick([1], True))", "print(pick([1], False))") in made
    assert ("NumberReplacer", "total = 0", "total = 1") in made
    operators = {operator for operator, _, _ in made}
    assert {"SwapIfElse", "ZeroIterationForLoop", "AddNot"} <= operators


def test_an_if_else_swap_moves_whole_bodies():
    swapped = [m for m in mutants_of(SOURCE, "m.py")
               if m.operator == "SwapIfElse" and m.line == 9]
    assert len(swapped) == 1
    compile(swapped[0].source, "m.py", "exec")
    assert "if x < limit and x in xs:\n            print(\"skip\")\n        else:\n" \
        "            return x\n" in swapped[0].source


def test_every_mutant_compiles_differs_and_is_unique():
    mutants = mutants_of(SOURCE, "m.py")
    assert len(mutants) > 25
    for mutant in mutants:
        compile(mutant.source, "m.py", "exec")
        assert mutant.source != SOURCE
    assert len({m.source for m in mutants}) == len({m.id for m in mutants}) == len(mutants)


def test_docstrings_and_imports_are_never_removed():
    source = '"""Doc."""\nimport os\n\n\ndef f():\n    """Doc."""\n    return os.sep\n'
    removed = {m.before for m in mutants_of(source, "m.py") if m.operator == "RemoveStatement"}
    assert removed == {"return os.sep"}


def test_ids_do_not_move_with_line_numbers():
    first = {m.id: m.line for m in mutants_of(SOURCE, "m.py")}
    moved = {m.id: m.line for m in mutants_of("import os\n\n" + SOURCE, "m.py")}
    assert set(first) <= set(moved)
    assert all(moved[key] == line + 2 for key, line in first.items())


def test_starter_blocks_are_not_mutated():
    lines = block_lines(SOURCE, ["__main__"])
    assert lines == {16, 17}
    assert all(m.line not in lines for m in mutants_of(SOURCE, "m.py", lines))


def test_only_the_reference_submitted_files_are_mutated():
    assert {m.file for m in all_mutants(PACK)} == {"myAltNimFunctions.py"}


def _pack_with_equivalents(tmp_path: Path, text: str) -> Pack:
    folder = tmp_path / "altnim"
    folder.mkdir()
    (folder / "equivalent_mutants.toml").write_text(text, encoding="utf-8")
    return dataclasses.replace(PACK, dir=folder)


def test_a_tiny_run_catches_a_fault_and_sets_an_equivalent_apart(tmp_path):
    mutants = {(m.operator, m.before): m for m in all_mutants(PACK)}
    breaking = mutants[("ReplaceComparisonOperator_Eq_NotEq",
                        "if oddFirst == state.getStartOdd():")]
    listed = next(m for m in all_mutants(PACK) if m.id == "7f4ccb3c24")  # truly equivalent
    pack = _pack_with_equivalents(tmp_path, f'[[equivalent]]\nid = "{listed.id}"\n'
                                  'reason = "listed to test the list"\n')
    run, chosen = plan(pack, limit=1, seed=3)
    assert [(m.id, claim.reason) for m, claim in run.declared] == [
        (listed.id, "listed to test the list")]
    assert listed not in chosen and len(chosen) == 1
    grade_mutants(pack, run, [breaking], jobs=1)
    assert run.caught == [breaking] and run.survived == [] and run.errors == []
    assert [(m.id, why) for m, why in run.equivalent] == [(listed.id, "listed to test the list")]
    assert run.score == 100.0 and run.refused == []
    record = run.record()
    assert (record["caught"], record["equivalent"], record["score"]) == (1, 1, 100.0)


def test_an_equivalents_file_may_name_a_whole_block(tmp_path):
    pack = _pack_with_equivalents(tmp_path, '[[block]]\nfile = "myAltNimFunctions.py"\n'
                                  'block = "eval"\nreason = "never called"\n')
    run, chosen = plan(pack)
    assert run.declared and all(m.before or m.after for m, _ in run.declared)
    assert all(claim.reason == "never called" for _, claim in run.declared)
    assert {m.line for m, _ in run.declared} <= set(range(42, 49))
    assert len(chosen) + len(run.declared) == run.generated
    assert load_equivalents(pack).blocks[("myAltNimFunctions.py", "eval")].reason == \
        "never called"


def _fake_grading(survive: int):
    def grade(pack, run, mutants, *, jobs=1, progress=None):
        run.survived += mutants[:survive]
        run.caught += mutants[survive:]
        run.equivalent += [(m, c.reason) for m, c in run.declared]
        run.declared = []
        return run
    return grade


def test_the_command_prints_score_and_each_survivor_and_fails_below_target(monkeypatch, capsys):
    monkeypatch.setattr(selfcheck, "grade_mutants", _fake_grading(survive=1))
    code = main(["selfcheck", "altnim", "--mutants", "--no-samples", "--limit", "4"])
    out = capsys.readouterr().out
    assert code == 1
    assert re.search(r"^altnim: mutation score 75.0 %: caught 3 of 4 scored \(1 equivalent, 0 "
                     r"handout-silent\), sample of 4 of 81 \(95 % interval [\d.]+-[\d.]+ %\); "
                     r"grader errors 0; 82 mutants made, seed 0$", out, re.M)
    assert "survived (no test lost a mark; add a test that fails on each):" in out
    assert "myAltNimFunctions.py:" in out and "    - " in out and "    + " in out


def test_the_command_passes_at_the_target_and_records(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(selfcheck, "grade_mutants", _fake_grading(survive=0))
    written: list[dict] = []
    monkeypatch.setattr(selfcheck, "write_record",
                        lambda pack, record: written.append(record) or tmp_path / "m.json")
    assert main(["selfcheck", "altnim", "--mutants", "--no-samples", "--limit", "2",
                 "--record", "--as-sample"]) == 0
    assert "mutation score 100.0 %" in capsys.readouterr().out
    assert written[0]["score"] == 100.0 and written[0]["limit"] == 2


def _outcome(total: float) -> BatchOutcome:
    result = SubmissionResult(student="correct", assignment="altnim", assignment_title="",
                              status="graded", isolation="rlimits", total=total,
                              max_total=100)
    return BatchOutcome(results=[result], isolation=Isolation.RLIMITS)


@pytest.mark.parametrize(("total", "code"), [(100, 0), (55, 1)])
def test_samples_that_differ_from_expected_exit_one_and_are_named(monkeypatch, capsys,
                                                                   total, code):
    monkeypatch.setattr(selfcheck, "expected_by_student", lambda pack: {"correct": {
        "total": 100}})
    monkeypatch.setattr(selfcheck, "grade_samples", lambda pack: _outcome(total))
    assert main(["selfcheck", "altnim"]) == code
    out = capsys.readouterr().out
    if code:
        assert "altnim: sample correct differs from its expected.json:" in out
        assert "total 55 != expected 100" in out
        assert "altnim: 0 of 1 sample(s) get their expected marks" in out
    else:
        assert out.strip() == "altnim: 1 of 1 sample(s) get their expected marks"


def test_a_pack_lacking_what_every_pack_needs_fails_and_says_what(monkeypatch, capsys):
    monkeypatch.setattr(selfcheck, "declaration_problems", lambda pack: ["no `do_nothing` sample"])
    monkeypatch.setattr(selfcheck, "expected_by_student", lambda pack: {"correct": {
        "total": 100}})
    monkeypatch.setattr(selfcheck, "grade_samples", lambda pack: _outcome(100))
    assert main(["selfcheck", "altnim"]) == 1
    assert "altnim: no `do_nothing` sample" in capsys.readouterr().out


def test_grade_list_shows_the_recorded_score_and_what_it_covers(tmp_path):
    pack = dataclasses.replace(PACK, dir=tmp_path)
    assert list_label(pack) == "mutants: not measured"
    write_record(pack, MutationRun(pack="altnim", generated=3).record())
    assert list_label(pack) == "mutants: not measured"
    record = json.loads((tmp_path / "mutation.json").read_text())
    record.update(caught=27, scored=28, equivalent=1, handout_silent=2, score=96.4)
    (tmp_path / "mutation.json").write_text(json.dumps(record))
    assert list_label(pack) == ("mutants 96.4 %: caught 27 of 28 scored (1 equivalent, "
                                "2 handout-silent), all")
    shutil.rmtree(tmp_path)
    assert list_label(pack) == "mutants: not measured"


def test_a_reference_short_of_full_marks_stops_the_run(monkeypatch, capsys):
    broken_control = _outcome(90).results[0]
    broken_control.student = mutation.CONTROL
    monkeypatch.setattr(mutation, "_grade", lambda *args: {mutation.CONTROL: broken_control})
    assert main(["selfcheck", "altnim", "--mutants", "--no-samples", "--limit", "1"]) == 2
    assert "the unmutated reference does not get full marks: 90/100" in capsys.readouterr().err
