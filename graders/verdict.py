"""The pre-check's verdict, one definition for `grade check` and the student kit's
``precheck.py``: which rule violations fail it, and what the public tests earned."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from graders.packs import Pack
from graders.results import TestOutcome, ViolationRecord


def is_notice(pack: Pack, violation: ViolationRecord) -> bool:
    """Whether ``violation`` is a 0-point notice: a rule the pack declares with no deduction
    that feeds no criterion (say, ``entry-name``). It is shown, never charged, and never
    fails a pre-check; a collection problem (a syntax error, a missing file) is no notice."""
    specs = [spec for spec in pack.declaration.rules if spec.name == violation.rule]
    feeds = any(violation.rule in criterion.rules for criterion in pack.declaration.criteria)
    return bool(specs) and all(spec.deduction == 0 for spec in specs) and not feeds


def problems(pack: Pack, violations: Iterable[ViolationRecord]) -> list[ViolationRecord]:
    """The violations that cost marks or fail a check: all but the 0-point notices."""
    return [violation for violation in violations if not is_notice(pack, violation)]


def public_points(outcomes: Iterable[TestOutcome], shares: Mapping[str, float]) -> str:
    """What the public tests are worth and what these ``outcomes`` earned of it, each case
    worth its share of its criterion (``shares``: test name -> points per case), as the
    instructor's marking shares a criterion's points."""
    ran = list(outcomes)
    total = sum(shares.get(test.name, 0.0) for test in ran)
    earned = sum(shares.get(test.name, 0.0) for test in ran if test.outcome == "passed")
    return (f"Public part: {earned:.4g} / {total:.4g} points from the tests above; hidden "
            "tests and rule deductions make up the rest of the mark.")
