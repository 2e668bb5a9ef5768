"""Per-sandbox memory cgroups: capped on demand, emptied and removed on release."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.sandbox.cgroups import PREFIX, MemoryCgroups, join, memory_group_of

UID = 64999  # outside the sandbox pool, so no test run shares it


@pytest.fixture
def cgroups() -> Iterator[MemoryCgroups]:
    groups = MemoryCgroups()
    if not groups.available:
        pytest.skip("no writable memory cgroup here")
    yield groups
    groups.discard(UID)


def _capped(cgroups: MemoryCgroups, memory_mb: int) -> Path:
    procs = cgroups.cap(UID, memory_mb)
    assert procs is not None
    return procs


def _limit(procs: Path) -> int:
    group = procs.parent
    v2 = group / "memory.max"
    return int((v2 if v2.exists() else group / "memory.limit_in_bytes").read_text())


def test_cap_makes_a_group_with_the_limit_and_can_change_it(cgroups: MemoryCgroups):
    procs = _capped(cgroups, 300)
    assert procs.parent.name == f"{PREFIX}{UID}"
    assert _limit(procs) == 300 * 1024 * 1024
    assert _limit(_capped(cgroups, 100)) == 100 * 1024 * 1024  # lowering
    assert _limit(_capped(cgroups, 500)) == 500 * 1024 * 1024  # and raising again


def test_discard_kills_what_is_left_and_removes_the_group(cgroups: MemoryCgroups):
    procs = _capped(cgroups, 100)
    straggler = subprocess.Popen(["sleep", "60"], preexec_fn=lambda: join(procs))
    try:
        assert str(straggler.pid) in procs.read_text().split()
        cgroups.discard(UID)
        assert straggler.wait(timeout=60) == -9  # a guard against hanging, not a time limit
        assert not procs.parent.exists()
    finally:
        straggler.kill()


def test_discard_of_a_missing_group_is_quiet(cgroups: MemoryCgroups):
    cgroups.discard(UID)
    cgroups.discard(UID)


def test_no_cgroups_when_disabled(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("GRADER_NO_CGROUPS", "1")
    groups = MemoryCgroups()
    assert not groups.available and groups.cap(UID, 100) is None


def test_cgroup_v2_files_get_the_cap_and_no_swap(tmp_path: Path):
    group = tmp_path / f"{PREFIX}{UID}"
    group.mkdir()
    for name in ("memory.max", "memory.swap.max"):
        (group / name).write_text("max\n")
    procs = MemoryCgroups(tmp_path).cap(UID, 100)
    assert procs == group / "cgroup.procs"
    assert (group / "memory.max").read_text() == str(100 * 1024 * 1024)
    assert (group / "memory.swap.max").read_text() == "0"


def test_cgroup_v1_caps_memory_and_memory_plus_swap_alike(tmp_path: Path):
    group = tmp_path / f"{PREFIX}{UID}"
    group.mkdir()
    (group / "memory.memsw.limit_in_bytes").write_text("9223372036854771712\n")
    MemoryCgroups(tmp_path).cap(UID, 100)
    for name in ("memory.limit_in_bytes", "memory.memsw.limit_in_bytes"):
        assert (group / name).read_text() == str(100 * 1024 * 1024)


HYBRID = ["12:cpu,cpuacct:/job", "7:memory:/job/grader", "0::/job"]


def test_v1_memory_hierarchy_is_preferred_where_mounted(tmp_path: Path):
    (tmp_path / "memory").mkdir()
    assert memory_group_of(HYBRID, tmp_path) == tmp_path / "memory" / "job" / "grader"


def test_v2_unified_hierarchy_otherwise(tmp_path: Path):
    assert memory_group_of(HYBRID, tmp_path) == tmp_path / "job"
    assert memory_group_of(["0::/"], tmp_path) == tmp_path
    assert memory_group_of(["3:cpu:/x"], tmp_path) is None
