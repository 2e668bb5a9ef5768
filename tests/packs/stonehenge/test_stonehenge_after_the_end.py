"""Moves offered once the game is over: one slip (``moves-after-end``), charged once by the
rules criterion, only where the game itself says it is over (a game that never ends is not
that slip). The checks run on the in-process driver (``stonehenge`` fixture)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from graders.packs.stonehenge import checks
from graders.testing import Mismatch
from tests.packs.stonehenge.conftest import PACK

GUARD = ("        if self.get_winner():\n            return []\n", "")
NEVER_OVER = ('        return state.get_winner() != ""', "        return False")


def as_worker(driver):
    """The in-process driver answering ``call(op, *args)`` as a worker does."""
    return SimpleNamespace(call=lambda op, *args, **kwargs: getattr(driver, op)(*args, **kwargs))


def failure(worker, names) -> AssertionError:
    with pytest.raises(AssertionError) as raised:
        checks.expect_trace(worker, 2, True, "AGDEF", names)
    return raised.value


def test_moves_after_the_end_of_a_game_that_knows_it_ended_are_the_slip(stonehenge):
    worker = as_worker(stonehenge(PACK.reference_dir, edits={"stonehenge.py": [GUARD]}))
    for names in (["moves"], ["player", "moves", "over", "winners"]):
        raised = failure(worker, names)
        assert isinstance(raised, Mismatch) and raised.causes == checks.AFTER_THE_END, names
        assert "the game is over" in raised.message and "it must be []" in raised.message


def test_a_game_that_never_ends_is_not_that_slip(stonehenge):
    worker = as_worker(stonehenge(PACK.reference_dir, edits=_never_over()))
    for names in (["moves"], ["player", "moves", "over", "winners"]):
        raised = failure(worker, names)
        assert not getattr(raised, "causes", None), (names, raised)


def test_the_reference_passes_every_field(driver):
    checks.expect_trace(as_worker(driver), 2, True, "AGDEF", ["player", "moves", "over",
                                                              "winners", "board", "rough"])


def _never_over() -> dict[str, list[tuple[str, str]]]:
    source = (PACK.reference_dir / "stonehenge.py").read_text()
    assert NEVER_OVER[0] in source, "the reference's is_over changed: update NEVER_OVER"
    return {"stonehenge.py": [GUARD, NEVER_OVER]}
