"""Shared fixtures for the harness's own tests.

Costly things (a pack's graded samples, a kit, an attack batch) are made once per test run
and shared by every xdist worker through :class:`tests.run_cache.RunCache`, so tests need no
scheduling of their own: ``--dist worksteal`` spreads them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

from graders.batch import BatchRequest
from graders.outcomes import BatchOutcome
from graders.pack import Pack, get_pack
from graders.results import SubmissionResult
from graders.selfcheck import sample_sources, sample_times
from tests import canaries
from tests.gradings import count_gradings, processor_time, summary
from tests.in_process import load_driver  # noqa: F401 - a fixture for the packs' self-tests
from tests.run_cache import RunCache, run_root

# The suite's own property tests: the same examples on every run, nothing stored in a
# .hypothesis/ folder, no deadline on a loaded machine. `HYPOTHESIS_PROFILE=thorough` draws ten
# times as many. Grading is not affected: graders.testing.grading_settings sets each of these
# for the packs' tests itself.
settings.register_profile("ci", max_examples=100, derandomize=True, database=None,
                          deadline=None)
settings.register_profile("thorough", settings.get_profile("ci"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
PLANTED = pytest.StashKey[bool]()  # this process set the run's token (True: and planted)


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


def bare_template(pack: Pack, folder: Path) -> Path:
    """The starter kit as handed out, submitted untouched: each file to hand in, from its
    template (``[submission] templates``, else the file of the same name in the kit)."""
    folder.mkdir()
    templates = pack.declaration.submission.templates
    for name in pack.declaration.submission.files:
        template = pack.templates_dir / templates.get(name, name)
        if template.is_file():
            shutil.copyfile(template, folder / name)
    return folder


@pytest.fixture(scope="session")
def reference_and_bare(run_cache: RunCache, tmp_path_factory: pytest.TempPathFactory):
    """``reference_and_bare(pack_id) -> (reference's result, bare template's result)``,
    graded in one batch per pack, once per test run."""
    graded: dict[str, tuple[SubmissionResult, SubmissionResult]] = {}

    def of(pack_id: str) -> tuple[SubmissionResult, SubmissionResult]:
        if pack_id not in graded:
            pack = get_pack(pack_id)
            bare = bare_template(pack, tmp_path_factory.mktemp(pack_id) / "bare_template")
            request = BatchRequest(pack=pack, sources=[pack.reference_dir, bare],
                                   write_index=False)
            results = run_cache.graded(f"reference-and-bare-{pack_id}", request)[0].results
            reference, bare_result = sorted(results, key=lambda r: r.student == "bare_template")
            graded[pack_id] = reference, bare_result
        return graded[pack_id]

    return of


@pytest.fixture
def starter_kit(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A fresh copy of the starter kit of the requesting test module's ``PACK``."""
    kit = tmp_path / "kit"
    shutil.copytree(request.module.PACK.templates_dir, kit)
    return kit


def pytest_configure(config: pytest.Config) -> None:
    count_gradings()
    # The run's first process plants the canaries before any worker starts; a worker, or a
    # pytest a test starts, finds the token in its environment and leaves them be.
    runs_tests = not (config.option.collectonly or config.option.help)
    if runs_tests and not hasattr(config, "workerinput") and canaries.ENV not in os.environ:
        config.stash[PLANTED] = canaries.plant()


def pytest_unconfigure(config: pytest.Config) -> None:
    if PLANTED in config.stash:  # this process set the token: a later run here sets its own
        if config.stash[PLANTED]:
            canaries.remove()
        os.environ.pop(canaries.ENV, None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Modules holding a ``long`` test run first, each kept whole (its module fixtures are
    made once). ``--dist worksteal`` hands each worker a run of the collection and lets an
    idle worker steal from the end of another's queue, never its last two tests: a long test
    left at the end would keep one core busy while the other has nothing to do."""
    heavy = {item.path for item in items if item.get_closest_marker("long")}
    items.sort(key=lambda item: item.path not in heavy)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    with processor_time(item.nodeid):
        return (yield)


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    for line in summary():
        terminalreporter.write_line(line)
