"""Why marks moved: one run's result of a student against the same student's previous one."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from graders.gradebook.schema import Result, Run

WORDS = Path(__file__).with_name("words.toml")


@cache
def words() -> dict[str, dict[str, str]]:
    """The gradebook's wording (``words.toml``)."""
    return tomllib.loads(WORDS.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Change:
    """A student whose marks moved, from ``before`` to ``after``, and why."""

    name: str
    before: float
    after: float
    reasons: tuple[str, ...]  # keys of words.toml [reasons]
    criteria: tuple[tuple[str, float, float], ...]  # (criterion, before, after) that moved

    @property
    def why(self) -> str:
        """The reasons, in words."""
        return "; ".join(words()["reasons"][key] for key in self.reasons)


def moved(before: Result, after: Result) -> tuple[tuple[str, float, float], ...] | None:
    """The criteria whose mark moved (``("total", ...)`` when only the total did); None when
    no mark moved."""
    earlier = {mark.criterion: mark.earned for mark in before.marks}
    criteria = tuple((mark.criterion, earlier.get(mark.criterion, 0.0), mark.earned)
                     for mark in after.marks if earlier.get(mark.criterion) != mark.earned)
    if criteria or round(before.total, 2) != round(after.total, 2):
        return criteria or (("total", before.total, after.total),)
    return None


def reasons(before: Result, after: Result, before_run: Run, after_run: Run
            ) -> tuple[str, ...]:
    """Every input that differs between the two results (``none`` when none does)."""
    found = [
        key for key, differs in (
            ("code", before.code_digest != after.code_digest),
            ("pack", before_run.pack_digest != after_run.pack_digest),
            ("harness", before_run.harness_digest != after_run.harness_digest),
            ("due", before_run.due != after_run.due),
            ("own-due", before.own_due != after.own_due),
            ("times", before.submitted_at != after.submitted_at),
            ("override", before.overrides != after.overrides),
            ("error", after.status == "grader-error" and before.status != "grader-error"),
        ) if differs
    ]
    return tuple(found) or ("none",)


def compare(before_run: Run, after_run: Run) -> list[Change]:
    """The students of ``after_run`` whose marks moved since ``before_run``, by name."""
    earlier = {result.name: result for result in before_run.results}
    found = []
    for result in sorted(after_run.results, key=lambda r: r.name.lower()):
        previous = earlier.get(result.name)
        if previous is None:
            continue
        criteria = moved(previous, result)
        if criteria is not None:
            found.append(Change(result.name, previous.total, result.total,
                                reasons(previous, result, before_run, after_run), criteria))
    return found


def last_changes(runs: list[Run]) -> list[Change] | None:
    """What moved in the latest of ``runs`` (None when there is no earlier run)."""
    return compare(runs[-2], runs[-1]) if len(runs) > 1 else None


def changed_line(changes: list[Change]) -> str:
    """"marks changed since the last run: N students"."""
    return words()["lines"]["changed"].format(count=len(changes))
