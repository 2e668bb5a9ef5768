"""How a criterion's rules take its points, as the student page says it: a proportional
criterion (tippy's pep8: 1 point per distinct code) and one whose rule costs a weight once
(tippy's game_view: changed-lines, 1.67) were both called "all or nothing"."""

from __future__ import annotations

from graders.pack import get_pack
from graders.report.views import criterion_rules, rules_named
from graders.results import SubmissionResult, ViolationRecord


def test_each_criterion_says_how_its_rules_take_its_points():
    tippy = criterion_rules(get_pack("tippy"))
    assert tippy["pep8"] == ("1 point(s) off per distinct kind of message from rule(s) pep8, "
                             "at most 5")
    assert tippy["game_view"] == "a broken rule costs its weight, once: changed-lines (-1.67)"
    assert "state" not in tippy  # no rule takes its points
    stonehenge = criterion_rules(get_pack("stonehenge"))
    assert stonehenge == {"iterative": "all or nothing on rule(s): no-recursion"}


def test_the_index_marks_a_notice_apart_from_a_broken_rule():
    """pnt's pep8 listing costs nothing (a notice): the index's "rules broken" column named it
    like a rule that takes points, and so did the console summary."""
    pnt = get_pack("pnt")

    def broke(rule: str) -> ViolationRecord:
        return ViolationRecord(rule=rule, title=rule, file="pnt.py", message="", line=1)

    result = SubmissionResult(student="ann", assignment="pnt", assignment_title="PNT",
                              status="graded", isolation="bubblewrap", max_total=100.0,
                              violations=[broke("pep8"), broke("pep8"), broke("forbidden-x")])
    assert rules_named(pnt, result) == [("pep8", True), ("forbidden-x", False)]
