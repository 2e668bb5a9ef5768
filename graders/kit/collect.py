"""Which grader tests are public, and what each public test case is worth.

Asked of pytest itself (a collection, nothing runs), through the engine's own plugin, so the
kit holds exactly the tests `grade check` runs, however a pack marks them (a decorator, or a
mark on some parameter cases only).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from graders import fixtures
from graders.marking import feeds
from graders.pack import Pack
from graders.plugin import GradingPlugin, GradingState, own_session
from graders.sandbox import Sandbox
from graders.submissions import prepare


@dataclass
class Collected:
    """Public test function names per module file, and points per public test case."""

    public: dict[str, set[str]] = field(default_factory=dict)  # module stem -> test names
    shares: dict[str, float] = field(default_factory=dict)  # test name -> points per case
    counts: dict[str, int] = field(default_factory=dict)  # criterion id -> cases in all


class _Items:
    def __init__(self) -> None:
        self.items: list[pytest.Item] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.items = list(session.items)


def _collect(pack: Pack, public_only: bool) -> list[pytest.Item]:
    with tempfile.TemporaryDirectory(prefix="kit-collect-") as scratch:
        submission = prepare(pack.reference_dir, pack, Path(scratch))
        state = GradingState(pack, Sandbox.__new__(Sandbox), [submission], public_only, None)
        seen = _Items()
        args = [*pack.session_args(), "-p", "no:terminal", "--collect-only"]
        with own_session() as loaded:
            pytest.main([*args, *loaded], plugins=[GradingPlugin(state), fixtures, seen])
        return seen.items


def collect(pack: Pack) -> Collected:
    """The public tests of ``pack`` and the points of each public case."""
    found = Collected()
    every = _collect(pack, public_only=False)
    for criterion in pack.declaration.criteria:
        found.counts[criterion.id] = sum(feeds(criterion, _name(i)) for i in every)
    for item in _collect(pack, public_only=True):
        module = item.path.stem
        found.public.setdefault(module, set()).add(_name(item))
        for criterion in pack.declaration.criteria:
            if feeds(criterion, _name(item)) and found.counts[criterion.id]:
                found.shares[_name(item)] = round(
                    criterion.points / found.counts[criterion.id], 3)
    return found


def _name(item: pytest.Item) -> str:
    return str(getattr(item, "originalname", item.name))
