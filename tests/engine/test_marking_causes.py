"""One flaw, one charge: a criterion charges each distinct cause of its failing cases once, at
the weight the pack declares (``[[criteria]] causes``), capped at its points."""

from __future__ import annotations

import json

import pytest

from graders.declaration import DeclarationError, load_declaration
from graders.marking import mark_one
from graders.plugin import _causes
from graders.results import CriterionMark, SubmissionResult, TestOutcome, ViolationRecord
from graders.specs import CriterionSpec
from graders.testing import Mismatch

EXTRA = {"extra-line-after": "an extra line after the output"}
DECIMALS = {"number-format": "a number written in another format"}
FORMAT = CriterionSpec(
    id="format", title="Output format", points=15, tests=["test_format"],
    causes={"extra-line-after": 3, "label-wording": 2}, handout="print six lines",
)


def case(name: str, index: int, causes: dict[str, str] | None = None,
         outcome: str = "failed") -> TestOutcome:
    return TestOutcome(name=name, case=f"case{index}", outcome=outcome,  # type: ignore[arg-type]
                       public=False, causes=dict(causes or {}))


def test_a_cause_every_case_shows_costs_its_weight_once():
    tests = [case("test_format", i, EXTRA) for i in range(27)]
    mark = mark_one(FORMAT, tests, [])
    assert mark.earned == 12.0
    [charge] = mark.causes
    assert (charge.kind, charge.points, len(charge.places)) == ("extra-line-after", 3, 27)
    assert charge.places[0] == "test_format [case0]"
    assert "an extra line after the output (-3; 27 place(s))" in mark.notes[0]


def test_each_distinct_cause_is_charged_once_and_the_loss_is_capped():
    label = {"label-wording": "a label worded differently"}
    tests = [case("test_format", 0, EXTRA | label), case("test_format", 1, EXTRA),
             case("test_format", 2, outcome="passed")]
    assert mark_one(FORMAT, tests, []).earned == 10.0
    heavy = FORMAT.model_copy(update={"causes": {"extra-line-after": 40.0}})
    assert mark_one(heavy, tests, []).earned == 0.0


def test_a_case_with_a_cause_the_criterion_does_not_weigh_loses_its_share():
    tests = [case("test_format", 0, EXTRA | DECIMALS), case("test_format", 1, EXTRA),
             case("test_format", 2), case("test_format", 3, outcome="passed")]
    mark = mark_one(FORMAT, tests, [])
    # cases 0 (an unweighted cause too) and 2 (no cause) lose their shares; the extra line
    # is charged once besides
    assert mark.earned == pytest.approx(15 * 2 / 4 - 3)
    assert [c.kind for c in mark.causes] == ["extra-line-after"]


def test_a_criterion_without_causes_keeps_its_shares():
    plain = FORMAT.model_copy(update={"causes": {}})
    tests = [case("test_format", i, EXTRA) for i in range(3)] + [
        case("test_format", 3, outcome="passed")]
    mark = mark_one(plain, tests, [])
    assert mark.earned == pytest.approx(15 / 4) and mark.causes == []


def test_causes_travel_from_the_check_to_the_outcome_and_back_from_json():
    error = Mismatch("case 1: extra line", {"kind": "fields"}, causes=EXTRA)
    assert _causes(error) == EXTRA and _causes(AssertionError("x")) == {}
    mark = mark_one(FORMAT, [case("test_format", 1, EXTRA)], [])
    result = SubmissionResult(student="s", assignment="pnt", assignment_title="PNT",
                              status="graded", isolation="rlimits",
                              criteria=[mark], tests=[case("test_format", 1, EXTRA)])
    again = SubmissionResult.from_dict(json.loads(result.to_json()))
    assert again == result and isinstance(again.criteria[0], CriterionMark)
    assert again.criteria[0].causes[0].places == ["test_format [case1]"]


def test_a_cause_must_cost_something(tmp_path):
    path = tmp_path / "assignment.toml"
    path.write_text('id = "x"\ntitle = "x"\n[submission]\nfiles = ["a.py"]\n'
                    '[[criteria]]\nid = "f"\ntitle = "f"\npoints = 5\ntests = ["test_f"]\n'
                    'causes = { "extra-line-after" = 0 }\n', encoding="utf-8")
    with pytest.raises(DeclarationError, match="causes"):
        load_declaration(path)


def test_causes_cross_a_cluster_as_json_of_the_result_model():
    from graders.cluster_wire import Answer, results_answer

    mark = mark_one(FORMAT, [case("test_format", 1, EXTRA)], [])
    result = SubmissionResult(student="s", assignment="pnt", assignment_title="PNT",
                              status="graded", isolation="rlimits", criteria=[mark],
                              tests=[case("test_format", 1, EXTRA)])
    [again] = Answer.model_validate_json(results_answer([result])).results or []
    assert again == result and again.criteria[0].causes[0].kind == "extra-line-after"


def _broken(rule: str, line: int) -> ViolationRecord:
    return ViolationRecord(rule=rule, title=rule, file="game_view.py", message="m", line=line)


def test_a_rule_the_criterion_weighs_costs_its_weight_once_not_every_point():
    """A hook-up whose edit breaks ``changed-lines`` (twice) keeps its passing tests' shares and
    pays the rule's weight once; a rule the criterion does not weigh still takes every point."""
    hook_up = CriterionSpec(id="game_view", title="hook-up", points=5, tests=["test_view_*"],
                            rules=["changed-lines", "pep8"], causes={"changed-lines": 1.67},
                            handout="fewer than a dozen lines")
    tests = [case("test_view_menus", 0, outcome="passed"), case("test_view_keeps", 0,
                                                                  outcome="passed")]
    twice = [_broken("changed-lines", 12), _broken("changed-lines", 30)]
    mark = mark_one(hook_up, tests, twice)
    assert mark.earned == 3.33
    [charge] = mark.causes
    assert (charge.kind, charge.points, charge.places) == (
        "changed-lines", 1.67, ["game_view.py:12", "game_view.py:30"])
    assert mark_one(hook_up, tests, [*twice, _broken("pep8", 1)]).earned == 0.0
    failing = [case("test_view_menus", 0), case("test_view_keeps", 0, outcome="passed")]
    assert mark_one(hook_up, failing, twice).earned == pytest.approx(5 / 2 - 1.67, abs=0.01)
