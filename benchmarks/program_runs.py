"""What a student's program runs cost: fresh sandboxes, the program server, and bare.

Usage: .venv/bin/python benchmarks/program_runs.py [pack] [sample] [--rounds N]
(default: pnt's ``correct`` sample, 3 rounds). Runs every program run the pack's tests make for
that sample (pnt: its 27 cases; altNim: the runs of its golden files) three ways, round after
round: a fresh sandbox and interpreter per run (``Sandbox.run_fresh``), the workspace's program
server (``Sandbox.run``), and the same commands with a bare ``python3`` in a copy of the
workspace, no sandbox. Prints wall ms per student (all the runs) for each way, and the best
round. Nothing is asserted; on a loaded machine every figure grows, the ratios much less.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from graders.pack import Pack, get_pack
from graders.packs.pnt import checks as pnt
from graders.sandbox import Sandbox
from graders.submissions import prepare

Run = tuple[list[str], str, dict[str, Path]]


def runs_of(pack: Pack) -> list[Run]:
    """(argv, stdin, extra files) of every program run the pack's tests make per student."""
    if pack.id == "pnt":
        cases = {**pnt.parse_cases(pack.template_text("testcase.txt")),
                 pnt.SAMPLE_NAME: pnt.SAMPLE, **pnt.hidden_cases(pack)}
        return [([*pnt.PROGRAM, *case.argv()], "", {}) for case in cases.values()]
    inputs = pack.fixtures_dir / "inputs"
    return [(run.argv, run.stdin, {name: inputs / name for name in run.inputs})
            for spec in pack.declaration.golden
            for run in pack.declaration.golden_spec(spec.name).runs]


def sandboxed(box: Sandbox, workspace: Path, pack: Pack, runs: list[Run], fresh: bool) -> float:
    started = time.perf_counter()
    for argv, stdin, extra in runs:
        run = box.run_fresh if fresh else box.run
        run(workspace, argv, pack.limits, stdin=stdin, extra=extra)
    return time.perf_counter() - started


def bare(workspace: Path, runs: list[Run]) -> float:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "ws"
        shutil.copytree(workspace, folder)
        started = time.perf_counter()
        for argv, stdin, extra in runs:
            for name, source in extra.items():
                shutil.copyfile(source, folder / name)
            subprocess.run(["/usr/bin/python3", *argv[1:]], cwd=folder, input=stdin,
                           capture_output=True, text=True, check=False, timeout=60)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="pnt")
    parser.add_argument("sample", nargs="?", default="correct")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pack = get_pack(args.pack)
    box = Sandbox()
    try:
        with tempfile.TemporaryDirectory() as temp:
            source = pack.fixtures_dir / "submissions" / args.sample
            workspace = prepare(source, pack, Path(temp) / "work").workspace
            runs = runs_of(pack)
            ways: dict[str, list[float]] = {"fresh sandbox per run": [], "program server": [],
                                            "bare python3": []}
            for _ in range(args.rounds):
                ways["fresh sandbox per run"].append(sandboxed(box, workspace, pack, runs, True))
                ways["program server"].append(sandboxed(box, workspace, pack, runs, False))
                ways["bare python3"].append(bare(workspace, runs))
            print(f"{pack.id}/{args.sample}: {len(runs)} program runs per student, isolation "
                  f"{box.isolation.value}, best of {args.rounds} rounds")
            for way, seconds in ways.items():
                print(f"  {way:<22} {1000 * min(seconds):8.0f} ms per student "
                      f"({1000 * min(seconds) / len(runs):.0f} ms per run)")
    finally:
        box.close()


if __name__ == "__main__":
    main()
