"""Which gradebook column an export writes into: the LMS's existing one, never a new one.

The candidates are the grade columns of the gradebook ``grade --roster`` was given (Canvas's
``<Assignment name> (<assignment id>)``, Brightspace's ``<item> Points Grade``). ``--column``
names one by its full header, its name or its id; without it, the one column whose name holds
the assignment's title or id is taken. Ambiguous or absent: refused, with the candidates
listed.
"""

from __future__ import annotations

import re

from graders.errors import GraderError
from graders.intake.base import plain_name
from graders.pack import Pack

ITEM = re.compile(r"(?P<name>.*?)\s*(\((?P<id>\d+)\)|Points Grade(?: <[^<>]*>)?)?",
                  re.IGNORECASE)


def item_name(header: str) -> str:
    """``Project 2 (123456)`` -> ``Project 2``; ``Game Points Grade`` (and ``Game Points Grade
    <Numeric MaxPoints:100>``, as D2L exports it) -> ``Game``."""
    match = ITEM.fullmatch(header.strip())
    return match["name"] if match else header


def _squashed(text: str) -> str:
    return "".join(re.findall(r"[a-z0-9]+", plain_name(text)))


def fits(pack: Pack, header: str) -> bool:
    """True when the column's name holds the assignment's title or id."""
    name = _squashed(item_name(header))
    return bool(name) and any(key and key in name
                              for key in (_squashed(pack.title), _squashed(pack.id)))


def choose(pack: Pack, candidates: list[str], asked: str | None, lms: str,
           example: str) -> str:
    """The column to write into (GraderError, naming the candidates, when it cannot be told).

    ``asked`` is ``--column``; with no candidates known it is taken as written. ``example``
    shows the LMS's form of a header.
    """
    listed = ", ".join(f"`{c}`" for c in candidates)
    if asked:
        if not candidates:
            return asked
        wanted = asked.strip().lower()
        matches = [c for c in candidates
                   if wanted in (c.lower(), item_name(c).lower(), _id(c))]
        if len(matches) == 1:
            return matches[0]
        raise GraderError(f"--column {asked!r} is {'ambiguous' if matches else 'not'} among "
                          f"the {lms} gradebook's grade columns: {listed}")
    if not candidates:
        raise GraderError(f"which {lms} grade column? No gradebook was given to `grade "
                          f"--roster`, so its columns are unknown: pass --column with the "
                          f"column's header as the LMS shows it (e.g. `{example}`), or grade "
                          f"with the {lms} gradebook export as --roster")
    matches = [c for c in candidates if fits(pack, c)]
    if len(matches) == 1:
        return matches[0]
    why = "several" if matches else "none"
    raise GraderError(f"which {lms} grade column? {why} of the gradebook's columns match "
                      f"{pack.title!r} ({listed}): pass --column with one of them")


def _id(header: str) -> str:
    match = ITEM.fullmatch(header.strip())
    return (match["id"] or "") if match else ""
