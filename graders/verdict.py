"""The pre-check's verdict, one definition for `grade check` and the student kit's
``precheck.py``: which rule violations fail it, what the public tests earned, and the words a
first-year student reads (``verdict.toml``): their own function named instead of the grader's
operation, paths relative to their folder, no object reprs, the style verdict as charged."""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import replace
from fnmatch import fnmatch
from functools import cache
from pathlib import Path
from typing import Any

from graders.pack import Pack
from graders.results import TestOutcome, ViolationRecord
from graders.sandbox.isolation import SANDBOX_ROOT
from graders.specs import CriterionSpec

WORDS_FILE = Path(__file__).with_name("verdict.toml")
RAISED = re.compile(r"`[^`\n]+` raised (?P<rest>.*)", re.DOTALL)
OPERATION = re.compile(r"^`[^`\n]+`(?P<colon>:)? ")
FRAME = re.compile(r'File "(?P<file>[^"\n]+)", line (?P<line>\d+)')
REPR = re.compile(r"'?<(?:(?:function|bound method|built-in function) (?P<function>[\w.<>]+)"
                  r"|(?P<object>[\w.]+) object) at 0x[0-9a-fA-F]+>'?")


@cache
def words() -> dict[str, str]:
    """The pre-check's own wording (``verdict.toml``)."""
    with WORDS_FILE.open("rb") as handle:
        return {str(key): str(text) for key, text in tomllib.load(handle).items()}


@cache
def notice_problems() -> frozenset[str]:
    """The hand-in problems that only say how a submission was read (``problems.toml``
    ``notices``: which file was graded as the program, how the export was read)."""
    with Path(__file__).with_name("problems.toml").open("rb") as handle:
        return frozenset(tomllib.load(handle).get("notices", []))


def is_notice(pack: Pack, violation: ViolationRecord) -> bool:
    """Whether ``violation`` is a 0-point notice: a rule the pack declares with no deduction
    that feeds no criterion (say, ``entry-name``), or a 0-point note on how the submission was
    read (:func:`notice_problems`). It is shown, never charged, and never fails a pre-check;
    a collection problem (a syntax error, a missing file) is no notice."""
    if violation.rule in notice_problems() and not violation.deduction:
        return True
    specs = [spec for spec in pack.declaration.rules if spec.name == violation.rule]
    feeds = any(violation.rule in criterion.rules for criterion in pack.declaration.criteria)
    return bool(specs) and all(spec.deduction == 0 for spec in specs) and not feeds


def problems(pack: Pack, violations: Iterable[ViolationRecord]) -> list[ViolationRecord]:
    """The violations that cost marks or fail a check: all but the 0-point notices."""
    return [violation for violation in violations if not is_notice(pack, violation)]


Weights = Mapping[str, tuple[str, Mapping[str, float]]]


def cause_weights(pack: Pack, names: Iterable[str]) -> dict[str, tuple[str, dict[str, float]]]:
    """Test name -> (its criterion's id, the causes that criterion charges once: a free kind,
    which another criterion charges, at 0), for the tests ``names`` that feed a criterion
    declaring ``causes`` or ``free_kinds``."""
    return {name: (criterion.id, {**{kind: 0.0 for kind in criterion.free_kinds},
                                  **criterion.causes})
            for name in names for criterion in pack.declaration.criteria
            if (criterion.causes or criterion.free_kinds)
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
    return words()["public_points"].format(earned=f"{earned:.4g}", total=f"{total:.4g}")


def plain_words(message: str, details: Mapping[str, Any], files: Mapping[str, str], *,
                test: bool = True) -> str:
    """``message`` as a student reads it: an exception names the student's own function or
    class where the traceback ends in their ``files`` (not the grader's operation), paths are
    relative to their folder, and a quoted object repr says what was expected instead. A
    test's message starts with the grader's operation (`minimax` raised ...), said as "your
    code"; a rule's or the hand-in's (``test=False``) starts with the file it is about, kept."""
    raised = RAISED.search(message)
    if raised:
        message = message[:raised.start()] + _raised(
            raised["rest"], str(details.get("traceback") or ""), files)
    if test:
        message = OPERATION.sub(lambda m: "" if m["colon"] else words()["operation"], message)
    message = message.replace(SANDBOX_ROOT + "/", "")
    return REPR.sub(_repr_words, message)


def _raised(rest: str, traceback: str, files: Mapping[str, str]) -> str:
    frames = [(_relative(m["file"]), int(m["line"])) for m in FRAME.finditer(traceback)]
    mine = [(name, line) for name, line in frames if name in files]
    if not mine:
        return words()["raised_outside"].format(rest=rest)
    name, line = mine[-1]
    where = qualified_name(files[name], line)
    if where is None:
        return words()["raised_at_top"].format(file=name, line=line, rest=rest)
    return words()["raised_in"].format(where=where, file=name, line=line, rest=rest)


def _relative(path: str) -> str:
    return path.removeprefix(SANDBOX_ROOT + "/")


def qualified_name(source: str, line: int) -> str | None:
    """``Class.method`` (or ``function``) of the innermost definition holding ``line``."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    names: list[str] = []
    body: list[ast.stmt] = tree.body
    while True:
        inner = next((node for node in body if isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and node.lineno <= line <= (node.end_lineno or node.lineno)), None)
        if inner is None:
            return ".".join(names) or None
        names.append(inner.name)
        body = inner.body


def _repr_words(match: re.Match[str]) -> str:
    if match["function"]:
        return words()["function_repr"].format(name=match["function"].rsplit(".", 1)[-1])
    return words()["object_repr"].format(name=match["object"].rsplit(".", 1)[-1])


def charges_nothing(pack: Pack, test: TestOutcome) -> bool:
    """Whether a failed style test names only kinds the instructor lists but does not count
    (python_ta's post-2018 messages): the instructor gives it full points."""
    criterion = _style_criterion(pack, test)
    return test.outcome == "failed" and criterion is not None \
        and criterion.lists_only(test.details)


def as_marked(pack: Pack, tests: Iterable[TestOutcome]) -> list[TestOutcome]:
    """The outcomes as the marks read them: a style test that charges nothing
    (:func:`charges_nothing`) earned its points, so it passed; its message and details,
    which list the kinds, stay (see :func:`lists_kinds`). Reports, feedback, the console
    and the pre-check then never call full marks a failure or a thing to fix."""
    return [replace(test, outcome="passed") if charges_nothing(pack, test) else test
            for test in tests]


def lists_kinds(test: TestOutcome) -> bool:
    """Whether a passed test still lists message kinds (:func:`as_marked`): shown as a NOTE."""
    return test.outcome == "passed" and test.details.get("kind") == "kinds" \
        and bool(test.details.get("kinds"))


def failing(pack: Pack, outcomes: Iterable[TestOutcome]) -> list[TestOutcome]:
    """The public tests that fail the pre-check: all that did not pass, but a style test
    whose kinds are all free."""
    return [test for test in outcomes
            if test.outcome != "passed" and not charges_nothing(pack, test)]


def _style_criterion(pack: Pack, test: TestOutcome) -> CriterionSpec | None:
    return next((c for c in pack.declaration.criteria if c.per_kind is not None
                 and any(fnmatch(test.name, p) for p in c.tests)), None)


def style_lines(pack: Pack, test: TestOutcome) -> list[str]:
    """A failed style test (``details['kinds']``) as the instructor will charge it: the
    counted kinds first, each with its places, what they cost together, then the free kinds
    apart; [] when the test is no such test."""
    kinds = test.details.get("kinds") if test.details.get("kind") == "kinds" else None
    criterion = _style_criterion(pack, test)
    if not isinstance(kinds, dict) or criterion is None:
        return []
    free = sorted(k for k in kinds if criterion.is_free(k))
    counted = sorted(k for k in kinds if k not in free)
    each = criterion.per_kind or 0.0
    cost = {kind: criterion.causes.get(kind, each) for kind in counted}
    lost = min(criterion.points, sum(cost.values()))
    text = words()
    lines = [text["style_counted"].format(count=len(counted), each=f"{each:g}",
                                          lost=f"{lost:g}", points=f"{criterion.points:g}")
             ] if counted else []
    lines += ["  " + text["style_kind"].format(kind=kind, times=len(kinds[kind]),
                                                place=(kinds[kind] or ["?"])[0])
              for kind in counted]
    if free:
        lines.append(text["style_free"].format(count=len(free), kinds=", ".join(free)))
    return lines
