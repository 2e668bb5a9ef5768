"""The engine's proof of each exclusion: a declared mutant is graded and watched with the
unmutated reference, and its claim holds only when what it answered bears it out.

- ``equivalent``: it answers exactly as the reference on every case the pack asks (generated
  and hidden alike); else the claim is refused, naming the first difference.
- ``handout-silent``: it answers otherwise, but only in the answers the entry names
  (``differs``), and, when the entry says so, only in the characters it names (``ignoring``);
  else refused, naming the first difference that is not the one named. With no difference at
  all the claim is refused too: that mutant is equivalent, and should say so.

Either way a mutant that loses marks is refused too (once its answers bear the claim out): the
tests catch it, so it is scored, not excluded.
"""

from __future__ import annotations

from graders.mutation.equivalents import EQUIVALENT, Claim
from graders.observe import MISSING, Difference
from graders.results import SubmissionResult


def refusal(claim: Claim, result: SubmissionResult | None, full: float,
            found: list[Difference]) -> str | None:
    """Why ``claim`` does not hold for a mutant graded as ``result`` that answered with the
    differences ``found`` from the reference; None when it holds."""
    if result is None or result.status == "grader-error":
        error = "; ".join(result.grader_errors) if result else "no result came back"
        return f"could not be checked (grader error: {error[:200]})"
    why = _answers_refusal(claim, found)
    if why is None and result.total < full - 0.005:
        why = (f"it loses marks when graded ({result.total:g}/{full:g}): the tests catch it, "
               "so it is scored, not excluded")
    return why


def _answers_refusal(claim: Claim, found: list[Difference]) -> str | None:
    if claim.kind == EQUIVALENT:
        return f"it is not equivalent: {found[0].describe()}{_places(found)}" if found else None
    if not found:
        return ("it answers exactly as the reference on every case the pack asks (and every "
                "probe): it is equivalent, not handout-silent; declare it so")
    for difference in found:
        if not _named(claim, difference):
            return (f"it differs otherwise than named ({', '.join(claim.differs)}"
                    f"{_ignoring(claim)}): {difference.describe()}")
    return None


def _places(found: list[Difference]) -> str:
    """Where the differences are, for the author of an entry (what ``differs`` would name)."""
    places = sorted({difference.where for difference in found})
    more = f" and {len(places) - 6} more" if len(places) > 6 else ""
    return f" (answers that differ: {', '.join(places[:6])}{more})"


def _named(claim: Claim, difference: Difference) -> bool:
    where = difference.where
    if not any(where == name or where.startswith(name + ".") for name in claim.differs):
        return False
    if not claim.ignoring:
        return True
    ours, theirs = difference.reference, difference.mutant
    if not isinstance(ours, str) or not isinstance(theirs, str) or MISSING in (ours, theirs):
        return False
    return _without(ours, claim.ignoring) == _without(theirs, claim.ignoring)


def _without(text: str, characters: str) -> str:
    return text.translate({ord(char): None for char in characters})


def _ignoring(claim: Claim) -> str:
    return f", ignoring {claim.ignoring!r}" if claim.ignoring else ""
