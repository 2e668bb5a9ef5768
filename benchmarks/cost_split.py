"""Where a submission's grading time goes, per pack: the split issue 18 asks to measure first.

Usage: .venv/bin/python benchmarks/cost_split.py [pack ...] [--copies N]
(default: every pack, 1 copy of each honest sample). Grades the pack's honest samples (samples
that loop or flood are left out: their cost is their limit, not the harness's) in ONE process
(jobs=1), with timers wrapped around the engine's seams, and prints the exclusive time of each
part per submission: intake, rule checks, sandbox start-up, student code (time waiting for the
student's worker), reference calls, program runs (a fresh sandbox per run, start-up included),
style tools, pytest and the grader tests' own work, report writing; then the same time by
stage of :mod:`graders.stages` (intake, prepare, rules, session, mark, write). It also prints the
grader's CPU time per submission (this process and its pool workers; not the sandboxed
processes, whose time bubblewrap's reaping keeps from this process's accounts): wall-clock
figures move with the machine's load, this much less. For altnim it also prints the
harness/bare ratio: the harness's time per submission over running the student's two programs
once each with a bare ``python3``. Nothing is asserted.

:mod:`batch_throughput` imports :func:`measure`, :func:`report` and :func:`honest_samples` from
here: the split and the throughput table come from one run.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from cpu_account import accounted  # beside this script

from graders import pipeline, stages
from graders.batch import BatchRequest, grade_batch
from graders.pack import Pack, discover_packs, get_pack
from graders.report import ReportWriter
from graders.sandbox import Isolation, Sandbox
from graders.sandbox.worker import Worker

DISHONEST = {"loop", "hang", "huge", "flood", "timeout", "sleep"}  # words of a sample's name
PARTS = ["intake", "rule checks", "sandbox start-up", "student code", "reference calls",
         "program runs", "style tools", "pytest + test code", "report writing"]
STAGES = ["intake", "prepare", "rules", "session", "mark", "write"]


class Split:
    """Exclusive time per part: a part nested in another is not counted twice."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.stack: list[list[float]] = []
        self.restore: list[tuple[Any, str, Any]] = []

    def wrap(self, owner: Any, name: str, part: Callable[..., str] | str) -> None:
        original = getattr(owner, name)
        self.restore.append((owner, name, original))

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            label = part(*args, **kwargs) if callable(part) else part
            self.stack.append([time.perf_counter(), 0.0])
            try:
                return original(*args, **kwargs)
            finally:
                started, inner = self.stack.pop()
                elapsed = time.perf_counter() - started
                self.seconds[label] += elapsed - inner
                if self.stack:
                    self.stack[-1][1] += elapsed

        setattr(owner, name, timed)

    def undo(self) -> None:
        """Put every wrapped seam back (the next measurement wraps the originals)."""
        for owner, name, original in reversed(self.restore):
            setattr(owner, name, original)
        self.restore.clear()


@contextlib.contextmanager
def instrumented() -> Iterator[Split]:
    """Timers around the engine's seams, for the length of the block (this process only:
    pool workers at jobs > 1 are not instrumented)."""
    split = Split()
    split.wrap(stages, "prepare", "intake")
    split.wrap(stages, "run_rules", "rule checks")
    split.wrap(Worker, "start", "sandbox start-up")
    split.wrap(Worker, "call_raw", lambda worker, *a, **k: (
        "reference calls" if worker.label == "__reference__" else "student code"))
    split.wrap(Sandbox, "run", lambda *a, **k: "style tools" if k.get("tools") else
               "program runs")
    split.wrap(pytest, "main", "pytest + test code")
    split.wrap(ReportWriter, "write_student", "report writing")
    split.wrap(ReportWriter, "write_index", "report writing")
    try:
        yield split
    finally:
        split.undo()


@contextlib.contextmanager
def staged() -> Iterator[Split]:
    """Timers around each stage of :mod:`graders.stages` (this process only: at jobs > 1 the
    rules, session, mark and the students' reports are the pool workers')."""
    split = Split()
    split.wrap(pipeline, "intake", "intake")
    split.wrap(pipeline, "prepare_all", "prepare")
    split.wrap(pipeline, "class_consensus", "prepare")
    split.wrap(stages, "check_rules", "rules")
    split.wrap(stages, "run_session", "session")
    split.wrap(stages, "marked", "mark")
    split.wrap(stages, "_write_files", "write")
    split.wrap(ReportWriter, "write_index", "write")
    try:
        yield split
    finally:
        split.undo()


@dataclass
class Measured:
    """One graded batch: how many honest submissions, wall and CPU seconds, the split."""

    count: int
    seconds: float
    cpu_seconds: float
    isolation: Isolation
    parts: dict[str, float] = field(default_factory=dict)
    stages: dict[str, float] = field(default_factory=dict)
    all_cpu_seconds: float | None = None  # sandboxes included (None: not measurable here)

    @property
    def ms_each(self) -> float:
        return 1000 * self.seconds / max(1, self.count)


def _dishonest(sample: Path) -> bool:
    return bool(DISHONEST & set(sample.name.split("_")))  # `changed_signature` does not hang


def honest_samples(pack: Pack) -> list[Path]:
    folder = pack.fixtures_dir / "submissions"
    return sorted(p for p in folder.iterdir() if p.is_dir() and not _dishonest(p))


def left_out(pack: Pack) -> list[str]:
    """The samples whose cost is their limit (measured apart: not in the figures)."""
    folder = pack.fixtures_dir / "submissions"
    return sorted(p.name for p in folder.iterdir() if p.is_dir() and _dishonest(p))


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime


def measure(pack: Pack, copies: int = 1, jobs: int = 1) -> Measured:
    """Grade ``copies`` of every honest sample in one batch (reports included)."""
    with (tempfile.TemporaryDirectory() as temp, instrumented() as split,
          staged() as by_stage, accounted() as account):
        batch = Path(temp) / "batch"
        for copy in range(copies):
            for sample in honest_samples(pack):
                shutil.copytree(sample, batch / f"{sample.name}-{copy}")
        sources = sorted(batch.iterdir())
        cpu, started = _cpu_seconds(), time.perf_counter()
        every = account.seconds() if account else 0.0
        outcome = grade_batch(BatchRequest(pack=pack, sources=sources, jobs=jobs, fresh=True,
                                           out_dir=Path(temp) / "reports"))
        total, cpu = time.perf_counter() - started, _cpu_seconds() - cpu
        every = account.seconds() - every if account else None
    return Measured(len(sources), total, cpu, outcome.isolation, dict(split.seconds),
                    dict(by_stage.seconds), every)


def bare_altnim_seconds(pack: Pack, runs: int = 5) -> float:
    """The reference's two programs (testAltNim.py, altNim.py on the scripted games), bare."""
    with tempfile.TemporaryDirectory() as temp:
        folder = pack.build_reference_workspace(Path(temp) / "ref")
        script = (pack.templates_dir / "altNim.script").read_text(encoding="utf-8")
        answers = "".join(line.split("> ", 1)[1] + "\n" for line in script.splitlines()
                          if "> " in line) or "\n"
        started = time.perf_counter()
        for _ in range(runs):
            subprocess.run(["/usr/bin/python3", "testAltNim.py"], cwd=folder,
                           capture_output=True, check=False)
            subprocess.run(["/usr/bin/python3", "altNim.py"], cwd=folder, input=answers,
                           capture_output=True, text=True, check=False, timeout=30)
        return (time.perf_counter() - started) / runs


def report(pack: Pack, measured: Measured) -> None:
    """Print the split of one jobs=1 measurement."""
    count, total, parts = measured.count, measured.seconds, measured.parts
    print(f"\n{pack.id}: {count} honest submissions, {measured.ms_each:.0f} ms each "
          f"(jobs=1, reports included), grader CPU {1000 * measured.cpu_seconds / count:.0f} ms "
          f"each (sandboxes not counted), {all_cpu(measured)}")
    apart = left_out(pack)
    if apart:
        print(f"  left out (their cost is their time or output limit): {', '.join(apart)}")
    other = total - sum(parts.values())
    for part in [*PARTS, "other (batch glue)"]:
        seconds = parts.get(part, other if part.startswith("other") else 0.0)
        print(f"  {part:<20} {1000 * seconds / count:8.1f} ms  {100 * seconds / total:5.1f} %")
    print_stages(measured)
    if pack.id == "altnim":
        bare = bare_altnim_seconds(pack)
        print(f"  harness/bare ratio: {total / count / bare:.1f}x "
              f"(the two programs bare: {1000 * bare:.0f} ms)")


def all_cpu(measured: Measured) -> str:
    """The CPU of every process per submission, sandboxes included, as printed."""
    if measured.all_cpu_seconds is None:
        return "CPU of all processes unknown (no cpuacct group)"
    each = 1000 * measured.all_cpu_seconds / max(1, measured.count)
    return f"CPU of all processes {each:.0f} ms each (sandboxes included)"


def print_stages(measured: Measured) -> None:
    """The same time by stage (ms per submission and share of the wall time)."""
    count, total = measured.count, measured.seconds
    other = total - sum(measured.stages.values())
    print("  by stage:")
    for name in [*STAGES, "other"]:
        seconds = measured.stages.get(name, other if name == "other" else 0.0)
        print(f"    {name:<18} {1000 * seconds / count:8.1f} ms  {100 * seconds / total:5.1f} %")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packs", nargs="*", default=sorted(discover_packs()))
    parser.add_argument("--copies", type=int, default=1)
    args = parser.parse_args()
    for pack_id in args.packs:
        pack = get_pack(pack_id)
        report(pack, measure(pack, args.copies))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
