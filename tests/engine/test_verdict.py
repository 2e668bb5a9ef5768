"""The pre-check's verdict (graders/verdict.py), shared by `grade check` and the kit: a
0-point notice is shown and fails nothing; the public tests' points are printed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from graders.cli import main
from graders.marking import mark_one
from graders.pack import get_pack
from graders.results import TestOutcome, ViolationRecord
from graders.verdict import (
    as_marked,
    cause_weights,
    charges_nothing,
    failing,
    is_notice,
    lists_kinds,
    plain_words,
    problems,
    public_points,
    style_lines,
)

TIPPY = get_pack("tippy")


def violation(rule: str) -> ViolationRecord:
    return ViolationRecord(rule=rule, title=rule, file="game_view.py", message="m")


def test_a_declared_rule_with_no_deduction_and_no_criterion_is_a_notice():
    entry, pep8, syntax = violation("entry-name"), violation("pep8"), violation("syntax-error")
    assert is_notice(TIPPY, entry)
    assert not is_notice(TIPPY, pep8), "pep8 feeds the style criterion"
    assert not is_notice(TIPPY, syntax), "a collection problem is never a notice"
    assert problems(TIPPY, [entry, pep8, syntax]) == [pep8, syntax]


def test_a_note_on_how_the_hand_in_was_read_is_a_notice_unless_it_costs():
    """Which file was graded as the program, how the export was read: a NOTE, never a
    "rule broken"; a missing file stays a problem."""
    program, intake = violation("program-file"), violation("intake")
    assert is_notice(TIPPY, program) and is_notice(TIPPY, intake)
    assert not is_notice(TIPPY, violation("missing-file"))
    charged = ViolationRecord(rule="intake", title="t", file="f", message="m", deduction=5)
    assert problems(TIPPY, [program, intake, charged]) == [charged]


def test_the_public_points_are_each_cases_share():
    outcomes = [TestOutcome(name="test_a", case="1", outcome="passed", public=True),
                TestOutcome(name="test_a", case="2", outcome="failed", public=True),
                TestOutcome(name="test_b", case="", outcome="passed", public=True)]
    said = public_points(outcomes, {"test_a": 2.5, "test_b": 10})
    assert said == "Public part: 12.5 / 15 points; hidden tests make up the rest."


def test_a_cause_its_criterion_weighs_costs_its_weight_once_in_the_public_part():
    extra = {"extra-line-after": "an extra line after the output"}
    outcomes = [TestOutcome(name="test_format", case=str(k), outcome="failed", public=True,
                            causes=extra) for k in range(4)]
    weights = cause_weights(get_pack("pnt"), ["test_format"])
    assert weights == {"test_format": ("format", {"extra-line-after": 3.0,
                       "extra-line": 3.0, "label-wording": 3.0, "blank-line": 3.0,
                       "fields-on-one-line": 3.0})}
    said = public_points(outcomes, {"test_format": 0.5}, weights)
    assert said.startswith("Public part: 0 / 2 points")  # 2 - 3 once, never below 0
    said = public_points(outcomes, {"test_format": 1.0}, weights)
    assert said.startswith("Public part: 1 / 4 points")
    assert public_points(outcomes, {"test_format": 1.0}).startswith("Public part: 0 / 4")


@pytest.mark.sandbox
def test_grade_check_passes_a_correct_submission_whose_only_finding_is_a_notice(capsys):
    sample = TIPPY.fixtures_dir / "submissions" / "renamed_classes_helpers"
    code = main(["check", str(sample), "-a", "tippy"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "NOTE (0 points)" in printed and "[entry-name]" in printed
    assert "All public tests pass" in printed


def test_an_exception_names_the_students_own_function_and_never_the_sandbox():
    files = {"game_of_nim.py": "class GameOfNim:\n    def __init__(self):\n        raise X\n",
             "helper.py": "import termcolor\n"}
    inside = {"traceback": '  File "/sandbox/game_of_nim.py", line 3, in __init__\n'}
    assert plain_words("`play` raised NotImplementedError: build", inside, files) == (
        "your `GameOfNim.__init__` (game_of_nim.py, line 3) raised NotImplementedError: build")
    top = {"traceback": '  File "/sandbox/helper.py", line 1, in <module>\n'}
    assert plain_words("`choose` raised ModuleNotFoundError: termcolor", top, files) == (
        "your helper.py (line 1) raised ModuleNotFoundError: termcolor")
    assert plain_words("`trace` raised AttributeError: no StonehengeGame", {}, files) == (
        "AttributeError: no StonehengeGame")
    assert plain_words("`replay`: your code asked for more input()", {}, {}) == (
        "your code asked for more input()")
    assert plain_words("see /sandbox/game_of_nim.py line 3", {}, {}) == (
        "see game_of_nim.py line 3")


def test_the_style_verdict_lists_every_counted_kind_then_the_free_ones():
    pack = get_pack("stonehenge")
    style = next(c for c in pack.declaration.criteria if c.id == "style")
    free = f"{style.free_kinds[0]} something-new"
    kinds = {f"C{n:04d} kind-{n}": [f"stonehenge.py:{n} text"] for n in range(100, 111)}
    kinds[free] = ["strategy.py:1 text"]
    test = TestOutcome(name="test_style_python_ta", case="", outcome="failed", public=True,
                       message="python_ta: 12 kind(s) of message:\n  ... and 4 more kinds",
                       details={"kind": "kinds", "kinds": kinds})
    lines = style_lines(pack, test)
    assert lines[0] == (f"counted: 11 kind(s) of message, 1 point(s) each, so "
                        f"-{style.points:g} of {style.points:g} points:")
    assert [line.split(":")[0].strip() for line in lines[1:12]] == sorted(kinds)[:11]
    assert lines[-1] == f"listed, not counted (1 kind(s)): {free}"
    assert style_lines(pack, TestOutcome(name="test_x", case="", outcome="failed",
                                         public=True)) == []


def test_a_style_test_naming_only_free_kinds_charges_nothing_and_fails_nothing():
    pack = get_pack("stonehenge")
    style = next(c for c in pack.declaration.criteria if c.id == "style")

    def style_test(*kinds: str) -> TestOutcome:
        return TestOutcome(name="test_style_python_ta", case="", outcome="failed", public=True,
                           message="python_ta", details={"kind": "kinds", "kinds": {
                               kind: ["stonehenge.py:1 text"] for kind in kinds}})

    only_free = style_test(f"{style.free_kinds[0]} new", f"{style.free_kinds[1]} newer")
    one_counted = style_test(f"{style.free_kinds[0]} new", "C0103 invalid-name")
    assert charges_nothing(pack, only_free)
    assert not charges_nothing(pack, one_counted)
    assert failing(pack, [only_free, one_counted]) == [one_counted]
    other = TestOutcome(name="test_x", case="", outcome="failed", public=True)
    assert failing(pack, [other]) == [other], "a failed test that is no style test fails"


def test_a_style_test_naming_only_free_kinds_is_marked_passed_and_still_lists_them():
    """Full marks are no failure: reports, feedback and the pre-check show it passed (the
    kit and `grade check` as a NOTE), its message and kinds kept, and its criterion counts
    it among the tests passed."""
    pack = get_pack("stonehenge")
    style = next(c for c in pack.declaration.criteria if c.id == "style")
    kinds = {f"{style.free_kinds[0]} new": ["stonehenge.py:37 text"]}
    only_free = TestOutcome(name="test_style_python_ta", case="", outcome="failed",
                            public=True, message="python_ta: 1 kind(s) of message",
                            details={"kind": "kinds", "kinds": kinds})
    counted = replace(only_free, details={"kind": "kinds", "kinds": {
        **kinds, "C0103 invalid-name": ["strategy.py:3 text"]}})
    marked, kept = as_marked(pack, [only_free, counted])
    assert (marked.outcome, marked.message, marked.details) == (
        "passed", only_free.message, only_free.details)
    assert lists_kinds(marked) and not lists_kinds(kept) and kept == counted
    assert style_lines(pack, marked) == [f"listed, not counted (1 kind(s)): {next(iter(kinds))}"]
    mark = mark_one(style, [only_free], [])
    assert (mark.earned, mark.passed, mark.total) == (style.points, 1, 1)
    assert mark.notes == [f"listed, not counted: {next(iter(kinds))}"]
