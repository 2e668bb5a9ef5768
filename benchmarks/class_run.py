"""A class of N students graded as one batch: wall time, ms per submission, peak memory.

:mod:`batch_throughput` runs this with ``--class-size N``: the class is the pack's honest
samples (see :func:`cost_split.honest_samples`) cycled, each copy a student of its own
(``s0001-correct``, ``s0002-depth_off_by_one``, ...), graded with reports written, as
``grade`` grades an export. Peak memory is the high-water mark of resident memory
(``VmHWM``): the grading process's own, and each pool worker's, read from ``/proc`` while the
batch runs (sandboxed processes are not counted). Nothing is asserted.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from cost_split import honest_samples  # beside this script

from graders.batch import BatchRequest, grade_batch
from graders.pack import Pack


@dataclass
class ClassRun:
    """One graded class: size, jobs, wall seconds, and peak memory in MB."""

    size: int
    jobs: int
    seconds: float
    parent_mb: float
    worker_mb: dict[int, float] = field(default_factory=dict)

    @property
    def ms_each(self) -> float:
        return 1000 * self.seconds / max(1, self.size)

    def describe(self) -> str:
        workers = ", ".join(f"{mb:.0f}" for _, mb in sorted(self.worker_mb.items())) or "none"
        return (f"class of {self.size} at jobs {self.jobs}: {self.seconds / 60:.1f} min wall, "
                f"{self.ms_each:.0f} ms per submission; peak memory: grading process "
                f"{self.parent_mb:.0f} MB, pool workers {workers} MB")


class _Watch:
    """Samples the peak resident memory of this process's pool workers while a batch runs."""

    def __init__(self) -> None:
        self.peaks: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> _Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        me = os.getpid()
        while not self._stop.wait(0.25):
            for pid in _children(me):
                peak = _peak_mb(pid)
                if peak is not None:
                    self.peaks[pid] = max(peak, self.peaks.get(pid, 0.0))


def _children(parent: int) -> list[int]:
    """This process's pool workers: children running Python, not sandboxes (bwrap), not
    multiprocessing's resource tracker."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_bytes()
            command = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        comm, rest = stat.split(b") ", 1)
        if (int(rest.split()[1]) == parent and b"python" in comm
                and b"resource_tracker" not in command):
            found.append(int(name))
    return found


def _peak_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def build_class(pack: Pack, size: int, folder: Path) -> list[Path]:
    """``size`` students, each a renamed copy of an honest sample, cycling through them."""
    samples = honest_samples(pack)
    sources = []
    for index in range(size):
        sample = samples[index % len(samples)]
        target = folder / f"s{index + 1:04d}-{sample.name}"
        shutil.copytree(sample, target)
        sources.append(target)
    return sources


def grade_class(pack: Pack, size: int, jobs: int) -> ClassRun:
    """Grade a class of ``size`` at ``jobs`` (reports written) and measure it."""
    with tempfile.TemporaryDirectory() as temp:
        sources = build_class(pack, size, Path(temp) / "class")
        _reset_peak()
        with _Watch() as watch:
            started = time.perf_counter()
            grade_batch(BatchRequest(pack=pack, sources=sources, jobs=jobs, fresh=True,
                                     out_dir=Path(temp) / "reports"))
            seconds = time.perf_counter() - started
    parent = _peak_mb(os.getpid()) or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return ClassRun(size, jobs, seconds, parent, watch.peaks)


def _reset_peak() -> None:
    """Start this process's peak resident memory afresh (Linux: ``clear_refs`` 5), so a class
    graded after another pack's reports its own peak, not the run's."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
