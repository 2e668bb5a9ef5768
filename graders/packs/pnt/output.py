"""Parser for the six lines a PNT program prints (parent side, stdlib only).

::

    Move: 6
    Value: 1.0
    Number of Nodes Visited: 3
    Number of Nodes Evaluated: 1
    Max Depth Reached: 2
    Avg Effective Branching Factor: 1.0

Tolerated, because the handout does not grade it: trailing spaces (the official outputs have
one after the move), a missing final newline, trailing blank lines, any spacing after the
colon. Reported as a format problem of the field concerned, with the value still read when it
can be: a label in the wrong case, a float without exactly one decimal (``1.00``, ``1``), an
integer written as a float (``3.0``), and, when the output has exactly six lines, a wrong
label (the value is then read by position). A line that cannot be matched to a field leaves
that field missing (value None). Lines out of order, duplicates, blank lines in the middle and
extra lines are problems of the ``layout``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction

FIELDS: tuple[tuple[str, str, type], ...] = (
    ("move", "Move", int),
    ("value", "Value", float),
    ("visited", "Number of Nodes Visited", int),
    ("evaluated", "Number of Nodes Evaluated", int),
    ("max_depth", "Max Depth Reached", int),
    ("branching", "Avg Effective Branching Factor", float),
)
NAMES = tuple(name for name, _, _ in FIELDS)
LABELS = {name: label for name, label, _ in FIELDS}
KINDS = {name: kind for name, _, kind in FIELDS}
LAYOUT = "layout"

INT_TEXT = re.compile(r"-?[0-9]+")
FLOAT_TEXT = re.compile(r"-?[0-9]+\.[0-9]")
NUMBER_TEXT = re.compile(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")

Number = int | float


@dataclass
class ParsedOutput:
    """Per-field values (None when missing or unreadable) and format problems.

    `problems` maps a field name, or ``"layout"`` for problems of the whole output, to
    messages written for the student; `raw` holds each found field's text as printed.
    """

    values: dict[str, Number | None]
    problems: dict[str, list[str]] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)

    def add_problem(self, where: str, message: str) -> None:
        """Record a format problem of a field (or of the layout)."""
        self.problems.setdefault(where, []).append(message)

    @property
    def format_ok(self) -> bool:
        """True when the output has no format problem at all."""
        return not self.problems

    def problem_lines(self) -> list[str]:
        """All problems as readable lines, in field order, layout last."""
        lines = []
        for where in (*NAMES, LAYOUT):
            label = LABELS.get(where, "output")
            lines += [f"{label}: {message}" for message in self.problems.get(where, [])]
        return lines


def parse_output(text: str) -> ParsedOutput:
    """Read the six fields of a PNT program's output; never raises on any text."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    parsed = ParsedOutput({name: None for name in NAMES})
    found: dict[str, int] = {}
    unmatched: list[int] = []
    for index, line in enumerate(lines):
        if not line:
            parsed.add_problem(LAYOUT, f"line {index + 1} is blank")
            continue
        name = _claim_line(parsed, line, index, found)
        if name is None:
            unmatched.append(index)
    if len(lines) == len(FIELDS):
        unmatched = _read_by_position(parsed, lines, unmatched, found)
    for index in unmatched:
        parsed.add_problem(LAYOUT, f"line {index + 1} is not an output line: {lines[index]!r}")
    for name in NAMES:
        if name not in found:
            parsed.add_problem(name, f"missing line '{LABELS[name]}: ...'")
    if list(found) != [name for name in NAMES if name in found]:
        parsed.add_problem(LAYOUT, "the lines are not in the handout's order")
    return parsed


def _claim_line(parsed: ParsedOutput, line: str, index: int, found: dict[str, int]) -> str | None:
    """Read `line` into the field its label names; return that field's name or None."""
    label, colon, text = line.partition(":")
    if not colon:
        return None
    label = " ".join(label.split())
    for name in NAMES:
        if label.lower() != LABELS[name].lower():
            continue
        if name in found:
            parsed.add_problem(LAYOUT, f"line {index + 1} repeats '{LABELS[name]}'")
            return name
        if label != LABELS[name]:
            parsed.add_problem(name, f"label should read '{LABELS[name]}', not '{label}'")
        found[name] = index
        _read_value(parsed, name, text.strip())
        return name
    return None


def _read_by_position(
    parsed: ParsedOutput, lines: list[str], unmatched: list[int], found: dict[str, int]
) -> list[int]:
    """Read six-line outputs' unlabelled lines by position; return the lines left over."""
    left = []
    for index in unmatched:
        name = NAMES[index]
        if name in found:
            left.append(index)
            continue
        label, colon, text = lines[index].partition(":")
        shown = label.strip() if colon else lines[index].strip()
        parsed.add_problem(name, f"wrong label: expected '{LABELS[name]}:', got '{shown}'")
        found[name] = index
        _read_value(parsed, name, text.strip() if colon else "")
    # Keep `found` in output order so the order check sees the real layout.
    ordered = sorted(found.items(), key=lambda item: item[1])
    found.clear()
    found.update(ordered)
    return left


def _read_value(parsed: ParsedOutput, name: str, text: str) -> None:
    """Store the number in `text` for field `name`, noting any format problem."""
    kind = KINDS[name]
    parsed.raw[name] = text
    exact = INT_TEXT if kind is int else FLOAT_TEXT
    if exact.fullmatch(text):
        parsed.values[name] = kind(text)
        return
    number = _number(text)
    if kind is int and number is not None and number != int(number):
        number = None
    if number is None:
        what = "a whole number" if kind is int else "a number with one decimal place"
        parsed.add_problem(name, f"expected {what}, got {text!r}")
        return
    parsed.values[name] = kind(number)
    if kind is int:
        parsed.add_problem(name, f"expected a whole number, got {text!r}")
    else:
        parsed.add_problem(name, f"expected one decimal place, got {text!r}")


def _number(text: str) -> float | None:
    """The finite number written in `text`, or None."""
    if not NUMBER_TEXT.fullmatch(text):
        return None
    number = float(text)
    return number if math.isfinite(number) else None


def branching_matches(printed: float, visited: int, evaluated: int) -> bool:
    """True when `printed` is (visited - 1) / (visited - evaluated) to one decimal place.

    Both ways of rounding a tie are accepted (2.25 -> 2.2 as Python prints it, or 2.3 as
    Java's String.format does), so the check is: at most 0.05 away from the exact ratio.
    """
    expanded = visited - evaluated
    if expanded <= 0:
        return printed == 0.0
    exact = Fraction(visited - 1, expanded)
    return abs(Fraction(repr(printed)) - exact) <= Fraction(1, 20)
