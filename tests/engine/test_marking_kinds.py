"""Proportional criteria (``per_kind``), citations on marks, and no credit for what was not
checked."""

from __future__ import annotations

from graders.marking import mark_one
from graders.results import TestOutcome, ViolationRecord
from graders.specs import CriterionSpec

STYLE = CriterionSpec(
    id="style", title="Style", points=5, tests=["test_style_*"], per_kind=1.0,
    free_kinds=["C0209"], handout="Your code must follow the style guide.",
)
PEP8 = CriterionSpec(id="pep8", title="pep8", points=5, rules=["pep8"], per_kind=2.0)


def failed(name: str, kinds: dict[str, list[str]] | None) -> TestOutcome:
    details = {"kinds": kinds} if kinds is not None else {}
    return TestOutcome(name=name, case="", outcome="failed", public=False, details=details)


def passed(name: str) -> TestOutcome:
    return TestOutcome(name=name, case="", outcome="passed", public=False)


def pep8(code: str, line: int = 1) -> ViolationRecord:
    return ViolationRecord(rule="pep8", title="pep8", file="a.py", message="m", line=line,
                           kind=code)


def test_each_distinct_kind_costs_its_amount_once():
    tests = [
        failed("test_style_a", {"E501": ["a.py:1", "a.py:9"], "C0103": ["a.py:2"]}),
        failed("test_style_b", {"E501": ["b.py:4"]}),
        passed("test_style_c"),
    ]
    mark = mark_one(STYLE, tests, [])
    assert mark.earned == 3.0
    assert "C0103 (1x)" in mark.notes[0] and "E501 (3x)" in mark.notes[0]
    assert mark.handout == "Your code must follow the style guide."


def test_free_kinds_are_listed_but_cost_nothing():
    mark = mark_one(STYLE, [failed("test_style_a", {"C0209": ["a.py:3"]})], [])
    assert mark.earned == 5.0 and "C0209" in mark.notes[-1]


def test_the_loss_is_capped_at_the_criterion():
    kinds = {f"E{n}": ["a.py:1"] for n in range(100, 120)}
    assert mark_one(STYLE, [failed("test_style_a", kinds)], []).earned == 0.0


def test_a_failure_with_nothing_assessed_forfeits_the_criterion():
    tests = [failed("test_style_a", None), passed("test_style_b")]
    assert mark_one(STYLE, tests, []).earned == 0.0


def test_rule_violations_count_by_kind():
    violations = [pep8("E501", 1), pep8("E501", 7), pep8("W291"), pep8("E302,E303")]
    mark = mark_one(PEP8, [], violations)
    assert mark.earned == 0.0  # four kinds at 2 points, capped at 5
    assert mark_one(PEP8, [], [pep8("E501"), pep8("E501", 3)]).earned == 3.0
    assert mark_one(PEP8, [], []).earned == 5.0


def test_a_criterion_whose_tests_all_errored_earns_nothing():
    criterion = CriterionSpec(id="eval", title="eval", points=10, tests=["test_eval_*"])
    errored = TestOutcome(name="test_eval_x", case="", outcome="error", public=False)
    mark = mark_one(criterion, [errored], [])
    assert mark.earned == 0.0 and mark.total == 0
    assert any("nothing could be checked" in note for note in mark.notes)


def test_an_all_or_nothing_criterion_still_loses_everything_to_a_rule():
    criterion = CriterionSpec(id="it", title="it", points=15, tests=["test_it_*"],
                              rules=["no-recursion"])
    hit = ViolationRecord(rule="no-recursion", title="r", file="s.py", message="m")
    assert mark_one(criterion, [passed("test_it_a")], [hit]).earned == 0.0
    assert mark_one(criterion, [passed("test_it_a")], []).earned == 15.0


def test_a_kind_another_criterion_charges_is_free_on_a_shares_criterion():
    """game_of_nim's transcript differs only because the moves are listed in another order:
    the order criterion charges that once; the transcript lists it and keeps its share. A
    transcript that differs for any other reason still loses it."""
    transcript = CriterionSpec(id="transcript", title="t", points=12.0,
                               tests=["test_handout_transcript"], free_kinds=["move-order"])
    only_order = TestOutcome(name="test_handout_transcript", case="", outcome="failed",
                             public=True, message="differs",
                             causes={"move-order": "the moves listed in another order"})
    mark = mark_one(transcript, [only_order], [])
    assert mark.earned == 12.0 and [c.points for c in mark.causes] == [0.0]
    assert mark.notes == ["listed, not counted: move-order"]
    other = TestOutcome(name="test_handout_transcript", case="", outcome="failed",
                        public=True, message="differs")
    assert mark_one(transcript, [other], []).earned == 0.0
