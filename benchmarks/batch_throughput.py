"""How fast a class is graded: copies of a pack's samples graded in one batch.

Usage: .venv/bin/python benchmarks/batch_throughput.py [copies] [jobs] [pack]  (default 5
copies of each altNim sample except the infinite loop, whose cost is its time limit, not the
harness's; 1 job). Prints submissions per second and the per-submission cost; nothing is
asserted. ``stonehenge`` measures python_ta too (`grade setup stonehenge` first).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from graders.batch import BatchRequest, grade_batch
from graders.packs import get_pack

SKIP = {"infinite_loop"}


def main(copies: int, jobs: int, pack_id: str) -> None:
    pack = get_pack(pack_id)
    samples = [p for p in (pack.fixtures_dir / "submissions").iterdir()
               if p.is_dir() and p.name not in SKIP]
    with tempfile.TemporaryDirectory() as temp:
        batch = Path(temp) / "batch"
        for copy in range(copies):
            for sample in samples:
                shutil.copytree(sample, batch / f"{sample.name}-{copy}")
        sources = sorted(batch.iterdir())
        started = time.perf_counter()
        outcome = grade_batch(BatchRequest(pack=pack, sources=sources, jobs=jobs,
                                           out_dir=Path(temp) / "reports"))
        seconds = time.perf_counter() - started
    print(f"isolation: {outcome.isolation.value}, jobs: {jobs}")
    print(f"graded {len(outcome.results)} submissions in {seconds:.1f} s "
          f"({len(outcome.results) / seconds:.2f} per second, {1000 * seconds / len(sources):.0f} "
          "ms each, reports included)")
    print(f"projected for 1,000 submissions: {1000 * seconds / len(sources) / 60:.1f} min")


if __name__ == "__main__":
    numbers = [int(value) for value in sys.argv[1:3]]
    copies, jobs = numbers + [5, 1][len(numbers):]
    main(copies, jobs, sys.argv[3] if len(sys.argv) > 3 else "altnim")
