"""What a grading process keeps from one share to the next: work that is the pack's, not a
student's.

A pool worker (:mod:`graders.parallel`) or a Dask worker grades many shares of one batch, one
pytest session each. The reference driver's answers are the same for every share, so they are
kept for the life of the process, keyed by the pack's digest
(:func:`graders.outcomes.digest_pack`: the engine, the pack's tests, data, reference and hidden
inputs). A changed pack has another digest and starts empty; an options object with no digest
(a caller that did not compute one) never shares. Only one pack's answers are kept at a time.
A pack's seeded case generators are pure: :func:`made_once` makes each case list once per
process. Nothing a student's code produced is ever kept here.
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


def made_once(make: Callable[..., Made]) -> Callable[..., Made]:
    """``make``, a pure function of hashable arguments (a pack's seeded case generator), run
    once per process for each set of arguments; every caller gets a deep copy of what it made,
    so a test may change what it gets. For a pack whose cases cost more to make and check
    against its oracle than the student's code costs to run."""
    made = functools.cache(make)

    @functools.wraps(make)
    def copied(*args: Hashable, **kwargs: Hashable) -> Made:
        return copy.deepcopy(made(*args, **kwargs))

    return copied
