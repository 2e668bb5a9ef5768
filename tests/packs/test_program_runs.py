"""The program server against fresh processes, on every program run of pnt and altNim.

Every sample and attack submission of the two packs that run whole programs is prepared as
the batch prepares it; each program run its tests make (pnt: the 27 cases; altNim: the runs of
its golden files) is run twice, in the workspace's program server and in a fresh sandbox, both
with the pack's limits (the clock cut to ``COMPARED_SECONDS``) and its course environment as
grading mounts it (a pnt program importing sympy finds
it preloaded by the server on the one path, imports it itself on the other), and
the two must agree on stdout, stderr, exit status, the timeout and output flags, and the
verdict (``RunResult.problem``). Where they differ, a second fresh run tells what the program
itself does differently from run to run (how much of a flood got through before the stop, the
addresses in a ``repr``): those fields are left out, and exit status and flags must be
those of one of the fresh runs. A run that times out on both paths proves the two stop a
program alike; the submission's remaining runs would only wait out the same limit again (the
packs' own tests stop at a timeout too, per golden file), so this test stops there. Submissions
whose
files are the same bytes (the attacks on names hand in the correct solution) run the same
programs: each such program is run once, under the first of its names.
"""

from __future__ import annotations

import hashlib
import os
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import pytest

from graders.pack import Pack, get_pack
from graders.packs.pnt import checks as pnt
from graders.sandbox import Limits, RunResult
from graders.sandbox.programs import needs_fresh
from graders.submissions import prepare
from graders.tools import environment_mount
from tests.serving import serving_sandbox

PACKS = {name: get_pack(name) for name in ("pnt", "altnim")}
# Both paths get the same limits: the pack's, the clock cut to this. Every honest run here
# ends within a second; a program that loops proves the two paths stop it alike at any limit
# (the verdict names the limit it was given), and need not wait out the handout's 10 s twice.
COMPARED_SECONDS = 3
ROOT = Path(__file__).resolve().parents[2]


def _sources(pack: Pack) -> list[Path]:
    """The pack's samples and attacks, one of each set whose files are the same bytes."""
    found: dict[str, Path] = {}
    for folder in (pack.fixtures_dir / "submissions", ROOT / "fixtures" / "attacks" / pack.id):
        if folder.is_dir():
            for source in sorted(p for p in folder.iterdir() if p.is_dir()):
                found.setdefault(_content(source), source)
    return list(found.values())


def _content(source: Path) -> str:
    """A digest of what a submission hands in: each entry's name and bytes, a link's target
    (never followed), its expected.json (which only the suite reads) aside."""
    digest = hashlib.sha256()
    for path in sorted(source.rglob("*")):
        if path.name == "expected.json" and path.parent == source:
            continue
        if path.is_symlink():
            body = b"link:" + os.fsencode(os.readlink(path))
        elif path.is_file():
            body = path.read_bytes()
        else:
            body = b"folder"
        digest.update(os.fsencode(path.relative_to(source)) + b"\0" + body + b"\0")
    return digest.hexdigest()


CASES = [pytest.param(pack_id, source, id=f"{pack_id}-{source.parent.name}-{source.name}")
         for pack_id, pack in PACKS.items() for source in _sources(pack)]


def _runs(pack: Pack) -> list[tuple[list[str], str, tuple[str, ...]]]:
    """(argv, stdin, hidden inputs) of every run the pack's tests make, in their order."""
    if pack.id == "pnt":
        cases = {**pnt.parse_cases(pack.template_text("testcase.txt")),
                 pnt.SAMPLE_NAME: pnt.SAMPLE, **pnt.hidden_cases(pack)}
        return [([*pnt.PROGRAM, *position.argv()], "", ()) for position in cases.values()]
    return [(run.argv, run.stdin, tuple(run.inputs)) for spec in pack.declaration.golden
            for run in pack.declaration.golden_spec(spec.name).runs]


def _limits(pack: Pack) -> Limits:
    return replace(pack.limits, wall_seconds=min(pack.limits.wall_seconds, COMPARED_SECONDS),
                   cpu_seconds=min(pack.limits.cpu_seconds, COMPARED_SECONDS))


def _stretched(limits: Limits) -> Limits:
    """``limits`` with a clock and CPU limit four times as long."""
    return replace(limits, wall_seconds=limits.wall_seconds * 4,
                   cpu_seconds=limits.cpu_seconds * 4)


def _seen(result: RunResult, limits: Limits) -> dict[str, object]:
    return {"stdout": result.stdout, "stderr": result.stderr, "exit": result.exit_code,
            "timed_out": result.timed_out, "flooded": result.stopped_for_output,
            "truncated": result.output_truncated, "verdict": result.problem(limits)}


@pytest.fixture(scope="module")
def sandboxes():
    """A sandbox per pack with the pack's course environment, as grading has it (pnt's holds
    sympy, which the server imports once for the programs that import it)."""
    with ExitStack() as stack:
        yield {pack_id: stack.enter_context(serving_sandbox(environment_mount(pack)))
               for pack_id, pack in PACKS.items()}


STEADY = ("exit", "timed_out", "flooded")
OUTPUTS = ("stdout", "stderr")


@pytest.mark.parametrize(("pack_id", "source"), CASES)
def test_server_runs_match_fresh_runs(sandboxes, tmp_path, pack_id, source):
    pack, sandbox = PACKS[pack_id], sandboxes[pack_id]
    limits = _limits(pack)
    workspace = prepare(source, pack, tmp_path / "work").workspace
    assert sandbox.programs == "server"
    for argv, stdin, inputs in _runs(pack):
        run = (workspace, argv, stdin, {name: pack.fixtures_dir / "inputs" / name
                                        for name in inputs})
        agreed, seen = _compared(sandbox, run, limits, pack)
        for longer in (pack.limits, _stretched(pack.limits)):
            if agreed or seen[0]["timed_out"] == seen[1]["timed_out"]:
                break
            # Stopped by the clock on one path only: a program whose end depends on the
            # machine's load (fork_memory_bomb: children filling 400 MB each under one
            # memory cgroup, slower to reclaim on a busy machine) is compared again under
            # the pack's own clock, then under one so long that the program's own end, not
            # the clock, decides (a path that still never ends is a real difference).
            agreed, seen = _compared(sandbox, run, longer, pack)
        assert agreed, (" ".join(argv), *seen)
        fresh = seen[1]
        if fresh["timed_out"]:  # both paths stopped it alike: the rest would only wait again
            break
    # Every workspace not sent fresh by its source had runs answered by its server.
    served = any(sandbox.served(workspace, clock)
                 for clock in (limits, pack.limits, _stretched(pack.limits)))
    assert bool(served) != bool(needs_fresh(workspace)) or fresh["timed_out"], served


def _compared(sandbox, run, limits: Limits, pack: Pack) -> tuple[bool, tuple[dict, ...]]:
    """Whether the server's run of ``run`` agrees with fresh runs under ``limits``, and what
    each path showed (server, fresh, and a second fresh run where they differed)."""
    workspace, argv, stdin, extra = run
    server = _seen(sandbox.run(workspace, argv, limits, stdin=stdin, extra=extra), limits)
    fresh = _seen(sandbox.run_fresh(workspace, argv, limits, stdin=stdin, extra=extra), limits)
    if server == fresh:
        return True, (server, fresh)
    again = _seen(sandbox.run_fresh(workspace, argv, limits, stdin=stdin, extra=extra), limits)
    # A program whose very end depends on the machine's load may end either way on either
    # path: one of two server runs must end as one of two fresh runs did.
    if not _agrees(server, fresh, again):
        server = _seen(sandbox.run(workspace, argv, limits, stdin=stdin, extra=extra), limits)
    return _agrees(server, fresh, again), (server, fresh, again)


def _agrees(server: dict, fresh: dict, again: dict) -> bool:
    """The server's run matches on every field two fresh runs agree on, and ends as one of
    them did. A run stopped for its flood is cut wherever the stop caught it, on either path
    and from run to run alike (two fresh runs may by chance be cut at the same byte): its
    output need only be a prefix of a fresh run's, or that run's a prefix of it."""
    steady = [key for key in fresh if fresh[key] == again[key]]
    if server["flooded"] or fresh["flooded"]:
        if not all(_prefixes(server[key], fresh[key]) for key in OUTPUTS):
            return False
        steady = [key for key in steady if key not in OUTPUTS]
    ends = [{k: seen[k] for k in STEADY} for seen in (fresh, again)]
    return ({k: server[k] for k in steady} == {k: fresh[k] for k in steady}
            and {k: server[k] for k in STEADY} in ends)


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_no_sample_is_sent_fresh_by_its_source(tmp_path, pack_id):
    """The samples are the students' styles: the server must take all of them."""
    pack = PACKS[pack_id]
    for source in sorted((pack.fixtures_dir / "submissions").iterdir()):
        if source.is_dir():
            workspace = prepare(source, pack, tmp_path / source.name).workspace
            assert needs_fresh(workspace) is None, source.name


def _prefixes(one: str, other: str) -> bool:
    return one.startswith(other) or other.startswith(one)
