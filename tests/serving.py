"""A sandbox whose programs go through its program server, for the tests that compare it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from graders.sandbox import Isolation, Sandbox


@contextmanager
def serving_sandbox(environment: tuple[str, Path] | None = None) -> Iterator[Sandbox]:
    """A :class:`Sandbox` (with the course ``environment`` mounted, as grading mounts it)
    that runs whole programs through its program server; closed at the end. The test is
    skipped where there is no bubblewrap: the server needs a pid namespace."""
    box = Sandbox(environment=environment)
    try:
        if box.isolation is Isolation.RLIMITS:
            pytest.skip("the program server needs bubblewrap (a pid namespace)")
        box.programs = "server"
        yield box
    finally:
        box.close()
