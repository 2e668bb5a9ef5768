"""How many submissions a test run really grades (reused results not counted).

Set ``GRADERS_COUNT_GRADINGS=FILE`` (a new file per run) and every process of the run appends
one line per submission it hands to grading: pack, student, where the submission came from,
a digest of its files and mode, and the test that asked. The run's summary then says how often
each repository sample was graded, by path and by content (a test's copy of a sample, or an
export holding it, is the same content). Gradings started in another process (``grade`` run
as a subprocess) are not counted. The run cache (:mod:`tests.run_cache`) notes, beside the
file, how long each worker waited for each entry and spent making or re-reading it: the
summary names the waits, the time a core sat idle. Each test's processor time is noted too,
and summed by folder, file and test: unlike the durations, it barely grows when other work
loads the machine. Where a cgroup-v1 ``cpuacct`` group can be made (root), each worker joins
one and a test's time is that of every process the worker started meanwhile, sandboxes
included; elsewhere it is the worker's own and the children it waited for (a sandboxed
process some other process reaps is not counted, so sandbox-heavy files read low).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import resource
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from benchmarks.cpu_account import join_group
from graders.pack import project_root

COUNT_ENV = "GRADERS_COUNT_GRADINGS"


def count_gradings() -> None:
    """Wrap the pipeline's hand-out to its route, where only the submissions to grade pass."""
    log = os.environ.get(COUNT_ENV)
    if not log:
        return
    from graders import pipeline

    hand_out = pipeline._hand_out

    def counted(request, pending, *rest):
        test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
        mode = "check" if request.public_only else "full"
        # One JSON line per submission (ASCII: a name may hold a newline, a tab or bytes
        # that are not UTF-8, and must not split or break the line).
        lines = "".join(json.dumps([request.pack.id, s.id, _origin(s.source), test,
                                    _content(s.files, mode)]) + "\n" for s in pending)
        with Path(log).open("a", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(lines)
        return hand_out(request, pending, *rest)

    pipeline._hand_out = counted


def note_entry(name: str, waited: float, spent: float) -> None:
    """One line for the run cache's entry ``name``: seconds this worker waited for its locks,
    then spent making it (or reading what another made), and the test that asked."""
    log = os.environ.get(COUNT_ENV)
    if log:
        test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
        with Path(f"{log}.entries").open("a", encoding="utf-8") as handle:
            handle.write(json.dumps([name, round(waited, 1), round(spent, 1), test]) + "\n")


def _processor_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@functools.cache
def _account() -> tuple[Callable[[], float], str]:
    """This worker's processor-time clock and what it counts: its cpuacct group where one can
    be made (every process it starts), else its own and its reaped children's time."""
    account = join_group(f"graders-suite-{os.getpid()}")
    if account is None:
        return _processor_seconds, "rusage"
    return account.seconds, "group"


@contextmanager
def processor_time(nodeid: str) -> Iterator[None]:
    """Notes the processor seconds the test ``nodeid`` (setup, call and teardown) used."""
    # A grading session the test starts runs its own items (the toy pack's tests sit under
    # tests/): they are the test's time, counted once, by the test.
    log = os.environ.get(COUNT_ENV) if nodeid.startswith("tests/") else None
    clock, kind = _account() if log else (_processor_seconds, "rusage")
    before = clock()
    yield
    if log:
        used = clock() - before
        with Path(f"{log}.cpu").open("a", encoding="utf-8") as handle:
            handle.write(json.dumps([nodeid, round(used, 2), kind]) + "\n")


def _origin(source: Path) -> str:
    """The source relative to the repository, or ``-`` for a copy made by a test."""
    try:
        return source.resolve().relative_to(project_root()).as_posix()
    except ValueError:
        return "-"


def _content(files: dict[str, str], mode: str) -> str:
    text = json.dumps([mode, sorted(files.items())])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def summary() -> list[str]:
    """Lines for the run's summary: gradings in all, and of the repository's samples."""
    log = os.environ.get(COUNT_ENV)
    if not log or not Path(log).is_file():
        return []
    rows = [json.loads(line) for line in Path(log).read_text("utf-8").splitlines() if line]
    samples = Counter(row[2] for row in rows if "/submissions/" in row[2])
    contents = Counter(row[4] for row in rows)
    sample_contents = {row[4] for row in rows if "/submissions/" in row[2]}
    again = sum(times - 1 for content, times in contents.items() if content in sample_contents)
    lines = [f"gradings: {len(rows)} submissions graded ({len(contents)} distinct contents); "
             f"{sum(samples.values())} of them repository samples by path "
             f"({len(samples)} distinct), {again} more of the same samples' contents"]
    lines += [f"  {times}x {sample}" for sample, times in samples.most_common() if times > 1]
    return lines + _entry_lines(Path(f"{log}.entries")) + _cpu_lines(Path(f"{log}.cpu"))


def _entry_lines(path: Path) -> list[str]:
    """The run cache's entries: made, reused, and the waits for them (longest first)."""
    if not path.is_file():
        return []
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    waits = sorted((row for row in rows if row[1] >= 1), key=lambda row: -row[1])
    lines = [f"run cache: {len(rows)} asks for {len({row[0] for row in rows})} entries; "
             f"{sum(row[2] for row in rows):.0f} s making or re-reading them, "
             f"{sum(row[1] for row in rows):.0f} s waiting for them (a worker idle)"]
    lines += [f"  waited {row[1]:.0f} s for {row[0]} in {row[3]}" for row in waits[:15]]
    return lines


def _cpu_lines(path: Path) -> list[str]:
    """Processor seconds by test folder, the costliest files, and the costliest tests."""
    if not path.is_file():
        return []
    tests: dict[str, float] = defaultdict(float)
    kinds = set()
    for line in path.read_text("utf-8").splitlines():
        if line:
            nodeid, used, kind = json.loads(line)
            tests[nodeid] += used
            kinds.add(kind)
    total = sum(tests.values()) or 1.0
    files: dict[str, float] = defaultdict(float)
    folders: dict[str, float] = defaultdict(float)
    for nodeid, used in tests.items():
        file = nodeid.split("::")[0]
        files[file] += used
        folders["/".join(file.split("/")[:-1][:2]) or file] += used
    counted = ("every process each worker started, sandboxes included" if kinds == {"group"}
               else "tests and the children they waited for: sandboxes reaped elsewhere "
               "are not counted")
    lines = [f"processor time: {total:.0f} s in all ({counted})"]
    for table, count, indent in ((folders, None, ""), (files, 20, "  "), (tests, 25, "    ")):
        lines += [f"  {used:6.0f} s {used / total:4.0%} {indent}{name}"
                  for name, used in sorted(table.items(), key=lambda kv: -kv[1])[:count]]
    return lines
