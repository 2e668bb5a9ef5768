"""Causes: the kind of difference a failing test case shows, and its words for students.

A check that fails names what kind of difference it saw ("extra line after the output",
"moves offered after the game is over") beside its message: ``Mismatch(..., causes=...)``
gives ``{kind: words}``, kept in :attr:`graders.results.TestOutcome.causes`. A criterion may
then charge each distinct kind once, at the weight the pack declares (``[[criteria]] causes``,
or ``per_kind`` for every kind), instead of taking the share of every case that shows it
(:mod:`graders.marking`). The engine's own kinds and their words are data: ``causes.toml``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

WORDS_FILE = Path(__file__).with_name("causes.toml")


@cache
def _words() -> dict[str, str]:
    with WORDS_FILE.open("rb") as handle:
        return {str(kind): str(words) for kind, words in tomllib.load(handle).items()}


def words(kind: str) -> str:
    """What an engine kind of difference is called for students (the kind itself if unknown)."""
    return _words().get(kind, kind)


def known(kinds: Iterable[str]) -> dict[str, str]:
    """``{kind: words}`` for engine kinds (``causes.toml``), in the order given, once each."""
    return {kind: words(kind) for kind in kinds}


def place(test_name: str, case: str) -> str:
    """Where a cause shows: the test and its case, as the report writes them."""
    return f"{test_name} [{case}]" if case else test_name


__all__ = ["WORDS_FILE", "known", "place", "words"]
