"""Shared fixtures for the harness's own tests.

Costly things (a pack's graded samples, a kit, an attack batch) are made once per test run
and shared by every xdist worker through :class:`tests.run_cache.RunCache`, so tests need no
scheduling of their own: ``--dist worksteal`` spreads them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from graders.batch import BatchRequest
from graders.outcomes import BatchOutcome
from graders.pack import get_pack
from graders.selfcheck import sample_sources, sample_times
from tests.gradings import count_gradings, summary
from tests.in_process import load_driver  # noqa: F401 - a fixture for the packs' self-tests
from tests.run_cache import RunCache, run_root


@pytest.fixture(scope="session")
def run_cache(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> RunCache:
    """What this run makes once for all its workers."""
    return RunCache(run_root(pytestconfig, tmp_path_factory), tmp_path_factory)


@pytest.fixture(scope="session")
def graded_samples(run_cache: RunCache):
    """``graded_samples(pack_id) -> (outcome, report_dir)``: each pack's samples graded once
    per test run, in one batch with their times, with reports written (a copy per worker)."""
    graded: dict[str, tuple[BatchOutcome, Path]] = {}

    def grade(pack_id: str) -> tuple[BatchOutcome, Path]:
        if pack_id not in graded:
            pack = get_pack(pack_id)
            request = BatchRequest(pack=pack, sources=sample_sources(pack),
                                   times=sample_times(pack))
            graded[pack_id] = run_cache.graded(f"samples-{pack_id}", request)
        return graded[pack_id]

    return grade


@pytest.fixture(scope="session")
def sample_results(graded_samples):
    """``sample_results(pack_id) -> {student: SubmissionResult}`` of the graded samples."""

    def of(pack_id: str):
        outcome, _ = graded_samples(pack_id)
        return {result.student: result for result in outcome.results}

    return of


@pytest.fixture
def starter_kit(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A fresh copy of the starter kit of the requesting test module's ``PACK``."""
    kit = tmp_path / "kit"
    shutil.copytree(request.module.PACK.templates_dir, kit)
    return kit


def pytest_configure(config: pytest.Config) -> None:
    count_gradings()


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    for line in summary():
        terminalreporter.write_line(line)
