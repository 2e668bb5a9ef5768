"""Labelled program output: ``Label: value`` lines read into typed fields (parent side).

A pack whose programs print a report such as::

    Move: 6
    Value: 1.0

declares its fields (`Field`: a name, the label, int or float, and a float's decimal places)
and reads any text with `parse_labelled`, which never raises. It gives each field's value
(None when missing or unreadable), its text as printed, and format problems written for the
student, per field or for the ``layout`` of the whole output.

Tolerated: trailing spaces, no final newline, trailing blank lines, any spacing after the
colon. A format problem of the field, its value still read: a label in another case or
spacing, a float with other decimal places (``1.00``, ``1``), an int written ``3.0``, and,
in an output with exactly one line per field, a wrong label (the value is read by position).
An unmatched line leaves its field missing. Lines out of order, repeated, blank in the
middle, or extra are problems of the ``layout``; so is a line that holds several fields
(``Move: 6 Value: 1.0``, as a handout's sample may be typeset): each is read. Every
problem also names its kind of difference (``extra-line-after``, ``label-wording``, ...:
``graders/causes.toml``), so a check can say what kind of slip a failing output shows
(:attr:`Labelled.causes`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from graders.causes import known

LAYOUT = "layout"
INT_TEXT = re.compile(r"-?[0-9]+")
NUMBER_TEXT = re.compile(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")
PLACES = {0: "no decimal places", 1: "one decimal place", 2: "two decimal places"}


@dataclass(frozen=True)
class Field:
    """One labelled line: `kind` int or float; a float is printed with `decimals` places."""

    name: str
    label: str
    kind: type[int] | type[float] = int
    decimals: int = 1

    def exact(self, text: str) -> bool:
        """True when `text` is the value written exactly as the handout asks."""
        if self.kind is int:
            return INT_TEXT.fullmatch(text) is not None
        return re.fullmatch(rf"-?[0-9]+\.[0-9]{{{self.decimals}}}", text) is not None

    def wanted(self, readable: bool) -> str:
        """What the value should look like, for a message."""
        if self.kind is int:
            return "a whole number"
        places = PLACES.get(self.decimals, f"{self.decimals} decimal places")
        return places if readable else f"a number with {places}"


@dataclass
class Labelled:
    """Per-field values (None when missing or unreadable) and format problems.

    `problems` maps a field name, or ``"layout"`` for problems of the whole output, to
    messages written for the student; `raw` holds each found field's text as printed.
    """

    fields: Sequence[Field]
    values: dict[str, int | float | None]
    problems: dict[str, list[str]] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)
    kinds: list[str] = field(default_factory=list)  # each problem's kind, once, in order

    def add_problem(self, where: str, message: str, kind: str) -> None:
        """Record a format problem of a field (or of the layout), and its kind."""
        self.problems.setdefault(where, []).append(message)
        if kind not in self.kinds:
            self.kinds.append(kind)

    @property
    def causes(self) -> dict[str, str]:
        """The kinds of the problems found, with their words for students."""
        return known(self.kinds)

    @property
    def format_ok(self) -> bool:
        """True when the output has no format problem at all."""
        return not self.problems

    def problem_lines(self) -> list[str]:
        """All problems as readable lines, in field order, layout last."""
        labels = {f.name: f.label for f in self.fields} | {LAYOUT: "output"}
        return [f"{labels[where]}: {message}" for where in labels
                for message in self.problems.get(where, [])]


def parse_labelled(text: str, fields: Sequence[Field]) -> Labelled:
    """Read `fields` from a program's output `text`; never raises on any text."""
    lines = [line.rstrip() for line in text.rstrip().splitlines()]
    parsed = Labelled(fields, {f.name: None for f in fields})
    found: dict[str, int] = {}  # field name -> index of its line
    unmatched = []
    for index, line in enumerate(lines):
        parts = _fields_in(line, fields)
        if not line:
            parsed.add_problem(LAYOUT, f"line {index + 1} is blank", "blank-line")
        elif len(parts) > 1:
            parsed.add_problem(
                LAYOUT, f"line {index + 1} holds {len(parts)} output lines: print each of "
                f"{', '.join(repr(part.split(':')[0]) for part in parts)} on a line of its own",
                "fields-on-one-line")
            for part in parts:
                _claim_line(parsed, part, index, found)
        elif not _claim_line(parsed, line, index, found):
            unmatched.append(index)
    last = max(found.values(), default=-1)
    for index in unmatched:  # with one line per field, an unlabelled line is read by position
        spot = fields[index] if len(lines) == len(fields) else None
        if spot is None or spot.name in found:
            kind = "extra-line-after" if found and index > last else "extra-line"
            parsed.add_problem(
                LAYOUT, f"line {index + 1} is not an output line: {lines[index]!r}", kind)
            continue
        label, colon, value = lines[index].partition(":")
        shown = label.strip() if colon else lines[index].strip()
        parsed.add_problem(
            spot.name, f"wrong label: expected '{spot.label}:', got '{shown}'", "label-wording")
        found[spot.name] = index
        _read_value(parsed, spot, value.strip() if colon else "")
    for f in fields:
        if f.name not in found:
            parsed.add_problem(f.name, f"missing line '{f.label}: ...'", "missing-line")
    if sorted(found, key=found.__getitem__) != [f.name for f in fields if f.name in found]:
        parsed.add_problem(LAYOUT, "the lines are not in the handout's order", "line-order")
    return parsed


def _fields_in(line: str, fields: Sequence[Field]) -> list[str]:
    """``line`` cut where each field's ``Label:`` starts, when it starts with one (else the
    whole line): ``Move: 6 Value: 1.0`` -> ``["Move: 6", "Value: 1.0"]``. A label inside a
    longer one (``Depth:`` in ``Max Depth:``) is not a start; a separator before the next
    label (``,`` ``;`` ``|``) is not part of the value."""
    spans = [match.span() for f in fields for match in _label_pattern(f.label).finditer(line)]
    starts = sorted({start for start, end in spans
                     if not any(s < start < e or (s == start and e > end) for s, e in spans)})
    if not starts or line[:starts[0]].strip():
        return [line]
    ends = [*starts[1:], len(line)]
    return [line[start:end].rstrip(" \t,;|") for start, end in zip(starts, ends, strict=True)]


@cache
def _label_pattern(label: str) -> re.Pattern[str]:
    """A label as a word sequence followed by a colon, any case and spacing."""
    words = r"\s+".join(map(re.escape, label.split()))
    return re.compile(rf"(?<![A-Za-z]){words}\s*:", re.IGNORECASE)


def _claim_line(parsed: Labelled, line: str, index: int, found: dict[str, int]) -> bool:
    """Read `line` into the field its label names; False when it names none."""
    label, colon, text = line.partition(":")
    label = " ".join(label.split())
    spot = next((f for f in parsed.fields if label.lower() == f.label.lower()), None)
    if not colon or spot is None:
        return False
    if spot.name in found:
        parsed.add_problem(LAYOUT, f"line {index + 1} repeats '{spot.label}'", "repeated-line")
        return True
    if label != spot.label:
        parsed.add_problem(
            spot.name, f"label should read '{spot.label}', not '{label}'", "label-wording")
    found[spot.name] = index
    _read_value(parsed, spot, text.strip())
    return True


def _read_value(parsed: Labelled, spot: Field, text: str) -> None:
    """Store the number in `text` for field `spot`, noting any format problem."""
    parsed.raw[spot.name] = text
    if spot.exact(text):
        parsed.values[spot.name] = spot.kind(text)
        return
    number = float(text) if NUMBER_TEXT.fullmatch(text) else None
    if number is not None and (not math.isfinite(number) or spot.kind is int and number % 1):
        number = None
    if number is not None:
        parsed.values[spot.name] = spot.kind(number)
    parsed.add_problem(
        spot.name, f"expected {spot.wanted(number is not None)}, got {text!r}", "number-format")
