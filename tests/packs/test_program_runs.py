"""The program server against fresh processes, on every program run of pnt and altNim.

Every sample and attack submission of the two packs that run whole programs is prepared as
the batch prepares it; each program run its tests make (pnt: the 27 cases; altNim: the runs of
its golden files) is run twice, in the workspace's program server and in a fresh sandbox, and
the two must agree on stdout, stderr, exit status, the timeout and output flags, and the
verdict (``RunResult.problem``). After a run that times out, a pack's tests stop waiting for
that golden file (or, here, for that student's cases): so does this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.packs import Pack, get_pack
from graders.packs.pnt import checks as pnt
from graders.sandbox import Isolation, RunResult, Sandbox
from graders.submissions import prepare

PACKS = {name: get_pack(name) for name in ("pnt", "altnim")}
ROOT = Path(__file__).resolve().parents[2]


def _sources(pack: Pack) -> list[Path]:
    found = []
    for folder in (pack.fixtures_dir / "submissions", ROOT / "fixtures" / "attacks" / pack.id):
        if folder.is_dir():
            found += sorted(p for p in folder.iterdir() if p.is_dir())
    return found


CASES = [pytest.param(pack_id, source, id=f"{pack_id}-{source.parent.name}-{source.name}")
         for pack_id, pack in PACKS.items() for source in _sources(pack)]


def _runs(pack: Pack) -> list[list[tuple[list[str], str, tuple[str, ...]]]]:
    """Groups of (argv, stdin, hidden inputs): a group stops at its first timeout."""
    if pack.id == "pnt":
        cases = {**pnt.parse_cases(pack.template_text("testcase.txt")),
                 pnt.SAMPLE_NAME: pnt.SAMPLE, **pnt.hidden_cases(pack)}
        return [[([*pnt.PROGRAM, *position.argv()], "", ()) for position in cases.values()]]
    return [[(run.argv, run.stdin, tuple(run.inputs)) for run in pack.declaration.golden_spec(
        spec.name).runs] for spec in pack.declaration.golden]


def _seen(result: RunResult, pack: Pack) -> dict[str, object]:
    return {"stdout": result.stdout, "stderr": result.stderr, "exit": result.exit_code,
            "timed_out": result.timed_out, "flooded": result.stopped_for_output,
            "truncated": result.output_truncated, "verdict": result.problem(pack.limits)}


@pytest.fixture(scope="module")
def sandbox():
    box = Sandbox()
    if box.isolation is Isolation.RLIMITS:
        box.close()
        pytest.skip("the program server needs bubblewrap (a pid namespace)")
    yield box
    box.close()


@pytest.mark.parametrize(("pack_id", "source"), CASES)
def test_server_runs_match_fresh_runs(sandbox, tmp_path, pack_id, source):
    pack = PACKS[pack_id]
    workspace = prepare(source, pack, tmp_path / "work").workspace
    served = 0
    for group in _runs(pack):
        for argv, stdin, inputs in group:
            extra = {name: pack.fixtures_dir / "inputs" / name for name in inputs}
            sandbox.programs = "server"
            server = sandbox.run(workspace, argv, pack.limits, stdin=stdin, extra=extra)
            fresh = sandbox.run_fresh(workspace, argv, pack.limits, stdin=stdin, extra=extra)
            assert _seen(server, pack) == _seen(fresh, pack), " ".join(argv)
            if fresh.timed_out:
                break
        served += sandbox.served(workspace, pack.limits)
    assert served or source.name in FRESH_BY_DESIGN.get(pack_id, set()), (
        "every run of this workspace went fresh")


# Workspaces whose source uses what the server cannot show as a fresh interpreter shows
# (programs.FRESH_MARKERS), or whose programs kill the server: their runs go fresh.
FRESH_BY_DESIGN: dict[str, set[str]] = {"pnt": set(), "altnim": set()}
