"""What one sandbox costs and what a hostile one can take: start time, and a disk filler.

Usage: .venv/bin/python benchmarks/sandbox_limits.py [runs]  (default 30). Prints the mean
wall time of ``python3 -c pass`` in a fresh sandbox, then runs a program that writes 1 MB
files into its folder until it fails or its 5 s wall limit ends, and prints how much it wrote
and the largest size of the grader's own scratch folder meanwhile. Nothing is asserted.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from graders.sandbox import Limits, Sandbox

FILL = """
written = 0
try:
    while True:
        with open(f"fill{written}", "wb") as fill:
            fill.write(bytes(1 << 20))
        written += 1
except OSError as error:
    print(written, "MB, then", error.strerror)
"""


def _megabytes(folder: Path) -> int:
    du = subprocess.run(["du", "-sm", str(folder)], capture_output=True, text=True, check=False)
    return int(du.stdout.split()[0]) if du.stdout else 0


def start_cost(sandbox: Sandbox, workspace: Path, runs: int) -> float:
    sandbox.run(workspace, ["python3", "-c", "pass"], Limits())
    started = time.perf_counter()
    for _ in range(runs):
        sandbox.run(workspace, ["python3", "-c", "pass"], Limits())
    return (time.perf_counter() - started) / runs


def disk_fill(sandbox: Sandbox, workspace: Path) -> tuple[str, int]:
    peak, done = [0], threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _megabytes(sandbox.root))
            time.sleep(0.1)

    watcher = threading.Thread(target=watch)
    watcher.start()
    run = sandbox.run(workspace, ["python3", "-c", FILL], Limits(wall_seconds=5, cpu_seconds=5))
    done.set()
    watcher.join()
    said = run.stdout.strip() or f"no answer (timed out: {run.timed_out})"
    return said, peak[0]


def main(runs: int) -> None:
    sandbox = Sandbox()
    try:
        with tempfile.TemporaryDirectory() as temp:
            workspace = Path(temp)
            (workspace / "student.py").write_text("")
            print(f"isolation: {sandbox.isolation.value}, "
                  f"memory cgroups: {'yes' if sandbox.memory.available else 'no'}")
            print(f"start: {1000 * start_cost(sandbox, workspace, runs):.1f} ms per sandbox run")
            said, peak = disk_fill(sandbox, workspace)
            print(f"disk filler: wrote {said}; grader's scratch folder peaked at {peak} MB")
    finally:
        sandbox.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
