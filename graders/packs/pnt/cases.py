"""Parser for PNT test case files (parent side, stdlib only).

The official testcase.txt looks like::

    input1:
        TakeTokens 3 0 0
    input2:
        TakeTokens 7 1 1 2

A line ending in ``:`` names the case on the next line (``input1: TakeTokens 3 0 0`` on one
line works too). A case line is the program's arguments, optionally after the program's name
as the handout writes it: ``TakeTokens`` or ``PNT Player``. Blank lines and lines starting
with ``#`` are ignored.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from graders.packs.pnt.positions import Position, position_error

PROGRAM_NAMES = (("TakeTokens",), ("PNT", "Player"), ("PNTPlayer",))
INTEGER = re.compile(r"-?[0-9]+")


class CaseFileError(ValueError):
    """A test case file line that is not a valid case; the message names the line."""


@dataclass(frozen=True)
class Case:
    """A named test case."""

    name: str
    position: Position


def parse_arguments(words: list[str]) -> Position:
    """The Position described by the program's arguments (without the program name)."""
    if not words or not all(_is_int(w) for w in words):
        raise ValueError(f"expected whole numbers, got {' '.join(words)!r}")
    numbers = [int(w) for w in words]
    if len(numbers) < 3 or len(numbers) != numbers[1] + 3:
        raise ValueError(
            f"expected <#tokens> <#taken> <taken tokens...> <depth>, got {len(numbers)} numbers"
        )
    return Position(numbers[0], tuple(numbers[2:-1]), numbers[-1])


def parse_case_line(line: str, strict: bool = False) -> Position:
    """The Position on one case line, with or without the program's name in front.

    `strict` also checks that the history is legal and the game not over. It is off by
    default because official case 3 (``10 3 4 2 6 4``) opens with token 4, which the
    first-move rule forbids; programs are still expected to answer it.
    """
    words = line.split()
    for name in PROGRAM_NAMES:
        if tuple(words[: len(name)]) == name:
            words = words[len(name) :]
            break
    position = parse_arguments(words)
    problem = position_error(position) if strict else None
    if problem:
        raise ValueError(problem)
    return position


def parse_cases(text: str, strict: bool = False) -> list[Case]:
    """All cases of a test case file, in file order; raises CaseFileError on a bad line.

    `strict`: see `parse_case_line`. Every test of every student reads its case from these
    files, so a text is parsed once per process (cases are frozen: sharing them is safe).
    """
    return list(_parsed_cases(text, strict))


@functools.lru_cache(maxsize=16)
def _parsed_cases(text: str, strict: bool) -> tuple[Case, ...]:
    cases: list[Case] = []
    label: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, colon, rest = line.partition(":")
        if colon:
            if label is not None:
                raise CaseFileError(f"line {number}: case {label!r} has no arguments")
            label, line = head.strip(), rest.strip()
            if not line:
                continue
        try:
            position = parse_case_line(line, strict)
        except ValueError as error:
            raise CaseFileError(f"line {number}: {error}") from None
        name = label or f"case{len(cases) + 1}"
        if any(case.name == name for case in cases):
            raise CaseFileError(f"line {number}: a second case named {name!r}")
        cases.append(Case(name, position))
        label = None
    if label is not None:
        raise CaseFileError(f"end of file: case {label!r} has no arguments")
    return tuple(cases)


def format_cases(cases: list[Case]) -> str:
    """A test case file in the layout of the official testcase.txt."""
    return "".join(f"{case.name}:\n    {case.position.line()}\n" for case in cases)


def _is_int(word: str) -> bool:
    """True for a whole number such as ``7`` or ``-1``."""
    return INTEGER.fullmatch(word) is not None
