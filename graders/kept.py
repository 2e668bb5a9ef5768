"""What a grading process keeps from one share to the next: work that is the pack's, not a
student's.

A pool worker (:mod:`graders.parallel`) or a Dask worker grades many shares of one batch, one
pytest session each. The reference driver's answers are the same for every share, so they are
kept for the life of the process, keyed by the pack's digest
(:func:`graders.outcomes.digest_pack`: the engine, the pack's tests, data, reference and hidden
inputs). A changed pack has another digest and starts empty; an options object with no digest
(a caller that did not compute one) never shares. Only one pack's answers are kept at a time.
A pack's seeded case generators are pure: :func:`shared` makes each case list once per
process (:func:`made_once` hands each caller a copy of it). Nothing a student's code produced
is ever kept here.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

Made = TypeVar("Made")

_kept: dict[str, dict[str, Any]] = {}


def reference_answers(pack_digest: str) -> dict[str, Any]:
    """The reference answers of the pack with this digest, asked so far in this process (a
    fresh, unshared dict when ``pack_digest`` is empty)."""
    if not pack_digest:
        return {}
    if pack_digest not in _kept:
        _kept.clear()  # one pack at a time: a process grading another pack drops the old one
        _kept[pack_digest] = {}
    return _kept[pack_digest]


def forget() -> None:
    """Drop everything kept (tests; a process about to grade something else)."""
    _kept.clear()
    _made.cache_clear()


@functools.cache
def _made(make: Callable[..., Any], args: tuple[Hashable, ...],
          named: tuple[tuple[str, Hashable], ...]) -> Any:
    return make(*args, **dict(named))


def shared(make: Callable[..., Made], *args: Hashable, **kwargs: Hashable) -> Made:
    """``make(*args, **kwargs)`` (a pack's seeded case generator, a pure function of hashable
    arguments), made once per process and handed to every caller as the same object: for
    readers that never change what they get (the ``cases`` mark)."""
    return _made(make, args, tuple(sorted(kwargs.items())))


def made_once(make: Callable[..., Made]) -> Callable[..., Made]:
    """``make`` made once per process for each set of arguments (:func:`shared`), every caller
    getting a deep copy of it, so a test may change what it gets. For a pack whose cases cost
    more to make and check against its oracle than the student's code costs to run."""

    @functools.wraps(make)
    def copied(*args: Hashable, **kwargs: Hashable) -> Made:
        return copy.deepcopy(shared(make, *args, **kwargs))

    return copied
