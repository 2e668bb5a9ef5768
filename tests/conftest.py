"""Shared fixtures for the harness's own tests."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from graders.outcomes import BatchOutcome
from graders.pack import get_pack
from graders.selfcheck import grade_samples
from tests.gradings import count_gradings, summary

_GRADED: dict[str, tuple[BatchOutcome, Path]] = {}


@pytest.fixture(scope="session")
def graded_samples(tmp_path_factory: pytest.TempPathFactory):
    """``graded_samples(pack_id) -> (outcome, report_dir)``: each pack's samples graded once
    per test session, in one batch, with reports written."""

    def grade(pack_id: str) -> tuple[BatchOutcome, Path]:
        if pack_id not in _GRADED:
            out = tmp_path_factory.mktemp(f"reports-{pack_id}")
            _GRADED[pack_id] = (grade_samples(get_pack(pack_id), out), out)
        return _GRADED[pack_id]

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


# -- sharing costly session fixtures under pytest-xdist ------------------------------------
#
# A session fixture that grades or builds something costly does it once per worker process;
# the tests using it form one work unit, so one worker makes it once. The attack batches also
# share one canary port: they must never run on two workers at once. Each worker writes the
# unit of every test it collected (it alone knows which fixtures a test uses) and the
# controller's scheduler reads them. xdist's own xdist_group marker cannot carry this: it
# renames node ids, which pytest 9.2 no longer lets a plugin do.

SHARED = {  # longest first: the scheduler starts these units before any other
    "kit_zip": "kit-{pack}",
    "attacked": "attacks",
    "graded_samples": "samples-{pack}",
    "graded_export": "exports",
}
LONG_RANK = len(SHARED)  # a module with a `long` test starts right after the shared units
UNITS_KEY = "harness_work_units"  # in workerinput: the folder the workers write their units to
_UNITS = pytest.StashKey[Path]()  # that folder, on the controller


def _pack_of(item: pytest.Item) -> str:
    """The pack whose samples or kit the test uses: its ``pack_id`` parameter, its
    ``samples_of`` marker, or the ``tests/packs/<pack>/`` folder it lives in."""
    params = getattr(item, "callspec", None)
    if params is not None and "pack_id" in params.params:
        return str(params.params["pack_id"])
    marker = item.get_closest_marker("samples_of")
    if marker is not None:
        return str(marker.args[0])
    parts = item.path.relative_to(Path(__file__).parent).parts
    if parts[0] == "packs" and len(parts) > 2:
        return parts[1]
    raise pytest.UsageError(f"{item.nodeid} uses a pack's shared fixture but names no pack: "
                            "give it a pack_id parameter or a samples_of(pack) marker")


def work_unit(item: pytest.Item) -> tuple[str, int]:
    """The unit a test is scheduled in, and how early the unit starts (lowest first): that of
    the costly session fixture it uses, else its module (as ``--dist loadfile`` would)."""
    for rank, (fixture, unit) in enumerate(SHARED.items()):
        if fixture in item.fixturenames:
            return (unit.format(pack=_pack_of(item)) if "{pack}" in unit else unit), rank
    long = item.get_closest_marker("long") is not None
    return item.nodeid.split("::")[0], LONG_RANK if long else LONG_RANK + 1


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """Controller side: tell each worker where to write its units."""
    config = node.config
    if _UNITS not in config.stash:
        config.stash[_UNITS] = Path(tempfile.mkdtemp(prefix="work-units-"))
    node.workerinput[UNITS_KEY] = str(config.stash[_UNITS])


@pytest.hookimpl(tryfirst=True)  # written before xdist tells the controller it has collected
def pytest_collection_finish(session: pytest.Session) -> None:
    folder = getattr(session.config, "workerinput", {}).get(UNITS_KEY)
    if folder:
        units = {item.nodeid: work_unit(item) for item in session.items}
        name = session.config.workerinput["workerid"]
        (Path(folder) / f"{name}.json").write_text(json.dumps(units), encoding="utf-8")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``--dist loadgroup``: the work units above, not xdist_group markers."""
    if config.getoption("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedFixtureScheduling(LoadScopeScheduling):
        def __init__(self, config: pytest.Config, log) -> None:
            super().__init__(config, log)
            self.units: dict[str, str] = {}
            self.ranks: dict[str, int] = {}

        def schedule(self) -> None:
            if not self.units:  # every worker has collected; xdist checked they agree
                written = next(config.stash[_UNITS].glob("*.json"))
                for test, (unit, rank) in json.loads(written.read_text("utf-8")).items():
                    self.units[test] = unit
                    self.ranks[unit] = min(rank, self.ranks.get(unit, rank))
            super().schedule()

        def _split_scope(self, nodeid: str) -> str:
            return self.units.get(nodeid) or super()._split_scope(nodeid)

        def _assign_work_unit(self, node) -> None:
            # A long unit started last would leave the other workers idle at the end.
            first = min(self.workqueue, key=lambda unit: self.ranks.get(unit, LONG_RANK + 1))
            self.workqueue.move_to_end(first, last=False)
            super()._assign_work_unit(node)

    return SharedFixtureScheduling(config, log)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _UNITS in config.stash:
        shutil.rmtree(config.stash[_UNITS], ignore_errors=True)



def pytest_configure(config: pytest.Config) -> None:
    count_gradings()


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    for line in summary():
        terminalreporter.write_line(line)
