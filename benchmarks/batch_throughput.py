"""How fast a class is graded, every pack in ONE run: the split per pack and the issue-18 table.

Usage: .venv/bin/python benchmarks/batch_throughput.py [pack ...] [--copies N]
(default: every pack, 1 copy of each honest sample, about 5-10 minutes on 2 quiet cores), or
.venv/bin/python benchmarks/batch_throughput.py --class-size 1000 [--jobs 2] [pack ...]: a class
of that many students per pack, measured (:mod:`class_run`), then the split of one copy.

For each pack it grades the honest samples (samples that loop or flood are left out and named:
their cost is their limit, not the harness's) twice, as one batch each, reports included:

1. with ``--jobs 1`` in this process, timers on the engine's seams: the split of a submission's
   time (see :mod:`cost_split`), and the grader's own CPU time per submission;
2. with ``--jobs 2`` (two worker processes).

Then it prints a Markdown table: ms per submission at jobs 1 and 2, the speed-up, the minutes a
class of 1,000 takes at jobs 2, the issue's target and whether it is met. Figures are wall
clock: on a machine other work is using they grow with its load (the grader-CPU line of the
split moves much less, but leaves out the sandboxed processes). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from class_run import ClassRun, grade_class  # beside this script
from cost_split import Measured, all_cpu, bare_altnim_seconds, measure, report

from graders.pack import discover_packs, get_pack

# Issue 18: ms per honest submission at --jobs 2, and the speed-up from 1 to 2 jobs.
TARGETS = {"altnim": 150, "game_of_nim": 250, "pnt": 300, "stonehenge": 600, "tippy": 600}
SPEED_UP = 1.8
BARE_RATIO = 4.0  # altnim: at most 4x its two programs run bare


@dataclass
class Row:
    """One pack's line of the table."""

    pack: str
    one: Measured
    two: Measured
    bare_ms: float | None = None

    @property
    def speed_up(self) -> float:
        return self.one.ms_each / max(self.two.ms_each, 1e-9)

    def met(self) -> str:
        target = TARGETS.get(self.pack)
        misses = []
        if target is not None and self.two.ms_each > target:
            misses.append(f"no ({self.two.ms_each / target:.1f}x target)")
        if self.speed_up < SPEED_UP:
            misses.append(f"speed-up < {SPEED_UP}")
        if self.bare_ms and self.two.ms_each > BARE_RATIO * self.bare_ms:
            misses.append(f"{self.two.ms_each / self.bare_ms:.1f}x bare")
        return "; ".join(misses) or "yes"

    def line(self) -> str:
        target = TARGETS.get(self.pack)
        wanted = f"<= {target} ms" if target else "-"
        if self.bare_ms:
            wanted += f", <= {BARE_RATIO:g}x bare ({self.bare_ms:.0f} ms)"
        minutes = 1000 * self.two.ms_each / 60_000  # a class of 1,000, in minutes
        return (f"| {self.pack} | {self.one.ms_each:,.0f} | {self.two.ms_each:,.0f} | "
                f"{self.speed_up:.2f}x | {minutes:.1f} | {wanted} | {self.met()} |")


def table(rows: list[Row]) -> str:
    head = ["| pack | ms/submission at jobs 1 | at jobs 2 | speed-up | 1,000 students (min) "
            "| target | met? |", "|---|---|---|---|---|---|---|"]
    return "\n".join(head + [row.line() for row in rows])


def class_line(pack: str, run: ClassRun) -> str:
    """One pack's line of the class table."""
    target = TARGETS.get(pack)
    misses = []
    if target is not None and run.ms_each > target:
        misses.append(f"no ({run.ms_each / target:.1f}x target)")
    if run.seconds > 600 * run.size / 1000:
        misses.append(f"{run.seconds / 60 * 1000 / run.size:.1f} min per 1,000")
    workers = ", ".join(f"{mb:.0f}" for _, mb in sorted(run.worker_mb.items())) or "-"
    return (f"| {pack} | {run.size:,} | {run.jobs} | {run.seconds / 60:.1f} | "
            f"{run.ms_each:,.0f} | <= {target} ms | {'; '.join(misses) or 'yes'} | "
            f"{run.parent_mb:.0f} | {workers} |")


def classes(packs: list[str], size: int, jobs: int) -> None:
    """Grade a class of ``size`` per pack at ``jobs``, then print each pack's split."""
    lines = []
    for pack_id in packs:
        pack = get_pack(pack_id)
        run = grade_class(pack, size, jobs)
        print(f"\n{pack_id}: {run.describe()}", flush=True)
        lines.append(class_line(pack_id, run))
        report(pack, measure(pack, 1, jobs=1))
    print("\n| pack | students | jobs | wall (min) | ms/submission | target | met? "
          "| peak MB, grading process | peak MB, each pool worker |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packs", nargs="*", default=sorted(discover_packs()))
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--class-size", type=int, default=0,
                        help="grade a class of this many students per pack instead")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for --class-size")
    args = parser.parse_args()
    if args.class_size:
        classes(args.packs, args.class_size, args.jobs)
        return
    rows = []
    for pack_id in args.packs:
        pack = get_pack(pack_id)
        one = measure(pack, args.copies, jobs=1)
        report(pack, one)
        two = measure(pack, args.copies, jobs=2)
        bare = 1000 * bare_altnim_seconds(pack) if pack.id == "altnim" else None
        print(f"  jobs=2: {two.ms_each:.0f} ms each, grader CPU "
              f"{1000 * two.cpu_seconds / two.count:.0f} ms each, {all_cpu(two)}", flush=True)
        rows.append(Row(pack.id, one, two, bare))
    isolation = {row.one.isolation.value for row in rows} | {row.two.isolation.value
                                                             for row in rows}
    print(f"\nisolation: {', '.join(sorted(isolation))}; copies: {args.copies}; "
          "honest samples only; reports written; wall clock per submission\n")
    print(table(rows))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
