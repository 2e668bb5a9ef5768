"""Assertions and settings for grader tests (parent side).

Every failure raises :class:`Mismatch`, an ``AssertionError`` carrying structured ``details``
that the report renders (side-by-side text diff, differing fields, deepdiff paths).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from deepdiff import DeepDiff
from hypothesis import HealthCheck, Phase, settings
from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants

from graders.errors import StudentFault, StudentTimeout
from graders.sandbox import Limits, RunResult

TextMode = Literal["exact", "rstrip", "tokens"]
MODE_NAMES = {
    "exact": "exact bytes",
    "rstrip": "trailing spaces and the final newline ignored",
    "tokens": "compared word by word (spacing ignored)",
}
MAX_ROWS = 400
F = TypeVar("F", bound=Callable[..., Any])


class Mismatch(AssertionError):
    """The student's behaviour differs from what is expected; ``details`` feed the report.

    ``causes`` names the kind(s) of difference (``{kind: words}``, see :mod:`graders.causes`):
    a criterion that declares a weight for every kind a case shows charges each kind once,
    however many cases show it, instead of taking those cases' shares."""

    def __init__(
        self, message: str, details: dict[str, Any], causes: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.details = details
        self.causes = dict(causes or {})


def expect_no_kinds(kinds: dict[str, list[str]], *, what: str = "style", shown: int = 8) -> None:
    """Fail when a checker reported messages: ``kinds`` maps each message kind (python_ta id,
    pycodestyle code) to its places (``"file.py:12 text"``). A proportional criterion
    (``per_kind``) deducts per distinct kind; the details list every place for the report."""
    if not kinds:
        return
    lines = [f"  {kind}: {len(places)}x, e.g. {places[0]}" for kind, places in sorted(
        kinds.items()) if places]
    more = f"\n  ... and {len(lines) - shown} more kinds" if len(lines) > shown else ""
    message = f"{what}: {len(kinds)} kind(s) of message:\n" + "\n".join(lines[:shown]) + more
    raise Mismatch(message, {"kind": "kinds", "kinds": {k: list(v) for k, v in kinds.items()}})


def normalise(text: str, mode: TextMode) -> list[str]:
    if mode == "tokens":
        return text.split()
    lines = text.splitlines()
    if mode == "rstrip":
        lines = [line.rstrip() for line in lines]
        while lines and not lines[-1]:
            lines.pop()
    return lines


def expect_text(
    actual: str, expected: str, *, mode: TextMode = "exact", what: str = "output"
) -> None:
    """Fail with a first-difference message and a side-by-side diff unless texts match."""
    if mode == "exact" and actual == expected:
        return
    got, want = normalise(actual, mode), normalise(expected, mode)
    if mode != "exact" and got == want:
        return
    if mode == "exact" and got == want:
        message = f"{what}: same lines, but the line endings or final newline differ"
        raise Mismatch(message, _text_details(what, mode, want, got, len(want)))
    first = next(
        (i for i, (w, g) in enumerate(zip(want, got, strict=False)) if w != g),
        min(len(want), len(got)),
    )
    unit = "word" if mode == "tokens" else "line"
    expected_line = want[first] if first < len(want) else "<end of output>"
    actual_line = got[first] if first < len(got) else "<end of output>"
    message = (
        f"{what} differs at {unit} {first + 1} ({MODE_NAMES[mode]}):\n"
        f"  expected: {expected_line!r}\n  got:      {actual_line!r}"
    )
    raise Mismatch(message, _text_details(what, mode, want, got, first))


def _text_details(what: str, mode: TextMode, want: list[str], got: list[str], first: int) -> dict:
    rows: list[dict[str, Any]] = []
    matcher = difflib.SequenceMatcher(a=want, b=got, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        for offset in range(max(a1 - a0, b1 - b0)):
            a, b = a0 + offset, b0 + offset
            rows.append(
                {
                    "tag": tag,
                    "left_no": a + 1 if a < a1 else None,
                    "left": want[a] if a < a1 else "",
                    "right_no": b + 1 if b < b1 else None,
                    "right": got[b] if b < b1 else "",
                }
            )
    return {
        "kind": "text-diff",
        "what": what,
        "mode": mode,  # the key; reports show MODE_NAMES[mode]
        "first_difference": first + 1,
        "rows": rows[:MAX_ROWS],
        "truncated": len(rows) > MAX_ROWS,
    }


def expect_program_output(
    runs: RunResult | Sequence[RunResult],
    expected: str,
    limits: Limits,
    *,
    mode: TextMode = "exact",
    what: str = "output",
    joiner: str = "",
) -> None:
    """Diff the joined stdout of ``runs`` with ``expected``; a crash, a hang or a flood is
    named first, and the diff still shows how far the output got."""
    runs = [runs] if isinstance(runs, RunResult) else list(runs)
    problems = [
        f"`{' '.join(run.argv)}` {problem}" for run in runs if (problem := run.problem(limits))
    ]
    problems += [
        f"`{' '.join(run.argv)}` printed more than {limits.output_kb} KB; the rest was cut"
        for run in runs
        if run.output_truncated
    ]
    stderr = "\n".join(run.stderr for run in runs if run.stderr)[-4000:]
    try:
        expect_text(joiner.join(run.stdout for run in runs), expected, mode=mode, what=what)
    except Mismatch as exc:
        if not problems:
            raise
        raise Mismatch(
            "\n".join([*problems, exc.message]), {**exc.details, "stderr": stderr}
        ) from None
    if problems:
        raise Mismatch("\n".join(problems), {"kind": "program", "stderr": stderr})


def expect_equal(
    actual: Any, expected: Any, *, what: str = "value", numbers_loosely: bool = False
) -> None:
    """Compare plain data with deepdiff; the report names each differing field.

    ``numbers_loosely``: 5 and 5.0 are the same value (the type is not graded).
    Equal values return at once: deepdiff is only needed to explain a failure, and it is slow.
    """
    if _same(actual, expected, numbers_loosely):
        return
    diff = DeepDiff(expected, actual, verbose_level=2, ignore_numeric_type_changes=numbers_loosely)
    if not diff:
        return
    changes = _changes(diff)
    if len(changes) == 1 and changes[0]["path"] == "root":
        message = f"{what}: expected {expected!r}, got {actual!r}"
    else:
        shown = "; ".join(
            f"{c['path']}: expected {c['expected']!r}, got {c['got']!r}" for c in changes[:3]
        )
        message = f"{what}: {shown}" + (" ..." if len(changes) > 3 else "")
    raise Mismatch(
        message,
        {
            "kind": "deepdiff",
            "what": what,
            "changes": changes[:50],
            "expected": expected,
            "actual": actual,
        },
    )


def _same(actual: Any, expected: Any, numbers_loosely: bool) -> bool:
    """``==`` as deepdiff judges it: 1 is not 1.0 (unless ``numbers_loosely``), True is not 1,
    and a list is not a tuple. False whenever in doubt: deepdiff then decides."""
    if numbers_loosely and _number(actual) and _number(expected):
        return bool(actual == expected)
    if type(actual) is not type(expected):
        return False
    if isinstance(actual, list | tuple):
        return len(actual) == len(expected) and all(
            _same(a, e, numbers_loosely) for a, e in zip(actual, expected, strict=True))
    if isinstance(actual, dict):
        return actual.keys() == expected.keys() and all(
            _same(actual[k], expected[k], numbers_loosely) for k in actual)
    if isinstance(actual, str | bytes | int | float | bool | type(None)):
        return bool(actual == expected)
    return False


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _changes(diff: DeepDiff) -> list[dict[str, Any]]:
    changes = []
    for kind, entries in diff.items():
        items = entries.items() if isinstance(entries, dict) else ((e, None) for e in entries)
        for path, change in items:
            if isinstance(change, dict) and "old_value" in change:
                expected, got = change["old_value"], change["new_value"]
            elif "removed" in kind:
                expected, got = change, "<missing>"
            else:
                expected, got = "<absent>", change
            changes.append({"path": str(path), "change": kind, "expected": expected, "got": got})
    return changes


def expect_keys(value: Any, keys: set[str], *, what: str = "answer") -> dict[str, Any]:
    """``value`` as a record with at least ``keys``; anything else is the student's failure
    (their code answered in a shape the driver never produces), never a grader error."""
    if not isinstance(value, dict) or not keys <= set(value):
        raise Mismatch(f"{what}: expected a record with {sorted(keys)}, got {value!r:.200}",
                       {"kind": "deepdiff", "what": what, "changes": [
                           {"path": "root", "change": "shape", "expected": sorted(keys),
                            "got": repr(value)[:200]}]})
    return value


def expect_fields(
    actual: dict[str, Any], expected: dict[str, Any], *, what: str = "output"
) -> None:
    """Field-by-field comparison: 'Number of Nodes Visited: expected 25, got 31'."""
    rows = [
        {
            "field": key,
            "expected": value,
            "got": actual.get(key, "<missing>"),
            "ok": actual.get(key, object()) == value,
        }
        for key, value in expected.items()
    ]
    wrong = [row for row in rows if not row["ok"]]
    if not wrong:
        return
    message = "; ".join(f"{r['field']}: expected {r['expected']}, got {r['got']}" for r in wrong)
    raise Mismatch(f"{what}: {message}", {"kind": "fields", "what": what, "rows": rows})


class Unplayable(Mismatch):
    """An answer the game could not take (a move of another game's class, say): like an
    exception, it says the strategy could not play on that game, not that it played wrong."""


def right_on_either(games: Sequence[Callable[[], Any]], ask: Callable[[Any], Any],
                    judge: Callable[[Any], None], *, own: str = "your own game") -> None:
    """``judge(ask(game))`` on the first of ``games``, and on the next only where the
    strategy could not play on the first.

    For a student's strategy played on the reference's game, so that a flaw of their own game
    costs marks once, in the game's criterion. A strategy that reads their own game's fields
    (a memo keyed on their board's shape, their own state class) raises there, or answers
    what that game cannot take (:class:`Unplayable`): it is what they wrote, and is judged on
    their game (``games[1]``, made only then). A strategy that plays on the first game and
    plays wrong is wrong: another game would only give it a second draw. A timeout is
    final: a strategy too slow on one game is too slow on the other. Where it cannot play on
    either, the first game's failure is raised; where it plays wrong on its own game, that
    failure, saying so (``own`` names that game)."""
    first, *rest = games
    try:
        answer = ask(first())
    except StudentTimeout:
        raise
    except (StudentFault, Unplayable) as exc:
        if not rest:
            raise
        could_not = exc
    else:
        judge(answer)
        return
    try:
        answer = ask(rest[0]())
    except AssertionError:
        raise _noted(could_not, f"on the instructor's game, and on {own}") from None
    try:
        judge(answer)
    except AssertionError as wrong:
        raise _noted(wrong, f"on {own}: on the instructor's it could not play") from None


def _noted(failure: AssertionError, words: str) -> AssertionError:
    """``failure`` with ``(words)`` after its message's first line (pytest puts the compared
    values below it)."""
    head, newline, tail = str(getattr(failure, "message", None) or failure).partition("\n")
    text = f"{head} ({words}){newline}{tail}"
    if isinstance(failure, StudentFault | Mismatch):
        failure.message = text
    failure.args = (text,)
    return failure


def hypothesis_home() -> Path:
    """Where Hypothesis keeps its files during grading: the user's cache folder
    (``$XDG_CACHE_HOME/graders/hypothesis``), never ``.hypothesis/`` in the folder ``grade``
    was started in: grading writes only under ``--out``."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "graders" / "hypothesis"


def grading_settings(max_examples: int = 30) -> Callable[[F], F]:
    """Hypothesis settings for grading: the same examples on every run and however the
    harness is installed, no database, no deadline (the sandbox enforces time), so a
    submission always gets the same mark."""
    _global_constants_only()
    return settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=False,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )


def _global_constants_only() -> None:
    """Hypothesis draws some examples from the constants of "local" modules, those outside
    site-packages: the engine's modules when the harness is installed editable, not when it
    is installed from a wheel (the Gradescope bundle), the kit's own copies in a kit. Grading
    draws only from Hypothesis's own constants, so every install tests the same examples.
    (Hypothesis has no setting for this: its provider reads the pool from this function.)"""
    if getattr(providers, "_get_local_constants", None) is not _no_local_constants:
        providers._get_local_constants = _no_local_constants
        providers.CONSTANTS_CACHE.cache.clear()  # pools already drawn with local constants


def _no_local_constants() -> Constants:
    return Constants()
