"""The pre-check's verdict, one definition for `grade check` and the student kit's
``precheck.py``: which rule violations fail it, and what the public tests earned."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fnmatch import fnmatch

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


Weights = Mapping[str, tuple[str, Mapping[str, float]]]


def cause_weights(pack: Pack, names: Iterable[str]) -> dict[str, tuple[str, dict[str, float]]]:
    """Test name -> (its criterion's id, the causes that criterion charges once), for the
    tests ``names`` that feed a criterion declaring ``causes``."""
    return {name: (criterion.id, dict(criterion.causes)) for name in names
            for criterion in pack.declaration.criteria if criterion.causes
            and any(fnmatch(name, pattern) for pattern in criterion.tests)}


def public_points(outcomes: Iterable[TestOutcome], shares: Mapping[str, float],
                  weights: Weights | None = None) -> str:
    """What the public tests are worth and what these ``outcomes`` earned of it, each case
    worth its share of its criterion (``shares``: test name -> points per case), as the
    instructor's marking shares a criterion's points. A failed case whose every cause its
    criterion weighs (``weights``, see :func:`cause_weights`) keeps its share, and each such
    cause costs its weight once."""
    ran = list(outcomes)
    total = sum(shares.get(test.name, 0.0) for test in ran)
    earned = sum(shares.get(test.name, 0.0) for test in ran if test.outcome == "passed")
    charged: dict[tuple[str, str], float] = {}
    for test in ran:
        criterion, weighs = (weights or {}).get(test.name, ("", {}))
        if test.outcome == "failed" and test.causes and set(test.causes) <= set(weighs):
            earned += shares.get(test.name, 0.0)
            charged |= {(criterion, kind): weighs[kind] for kind in test.causes}
    earned = max(0.0, earned - sum(charged.values()))
    return f"Public part: {earned:.4g} / {total:.4g} points; hidden tests make up the rest."
