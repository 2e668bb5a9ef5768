"""How many submissions a test run really grades (reused results not counted).

Set ``GRADERS_COUNT_GRADINGS=FILE`` (a new file per run) and every process of the run appends
one line per submission it hands to grading: pack, student, where the submission came from,
a digest of its files and mode, and the test that asked. The run's summary then says how often
each repository sample was graded, by path and by content (a test's copy of a sample, or an
export holding it, is the same content). Gradings started in another process (``grade`` run
as a subprocess) are not counted. The run cache (:mod:`tests.run_cache`) notes, beside the
file, how long each worker waited for each entry and spent making or re-reading it: the
summary names the waits, the time a core sat idle. Each test's processor time (its process
and the child processes it waited for: a sandboxed process some other process reaps is not
counted, so sandbox-heavy files read low) is noted too, and summed by folder and file: unlike
the durations, it barely grows when other work loads the machine.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
    then spent making it (or reading what another made)."""
    log = os.environ.get(COUNT_ENV)
    if log:
        with Path(f"{log}.entries").open("a", encoding="utf-8") as handle:
            handle.write(json.dumps([name, round(waited, 1), round(spent, 1)]) + "\n")


def _processor_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@contextmanager
def processor_time(nodeid: str) -> Iterator[None]:
    """Notes the processor seconds the test ``nodeid`` (setup, call and teardown) used."""
    log = os.environ.get(COUNT_ENV)
    before = _processor_seconds()
    yield
    if log:
        used = _processor_seconds() - before
        with Path(f"{log}.cpu").open("a", encoding="utf-8") as handle:
            handle.write(json.dumps([nodeid.split("::")[0], round(used, 2)]) + "\n")


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
    lines += [f"  waited {row[1]:.0f} s for {row[0]}" for row in waits[:15]]
    return lines


def _cpu_lines(path: Path) -> list[str]:
    """Processor seconds by test folder, and the costliest files."""
    if not path.is_file():
        return []
    files: dict[str, float] = defaultdict(float)
    for line in path.read_text("utf-8").splitlines():
        if line:
            name, used = json.loads(line)
            files[name] += used
    total = sum(files.values()) or 1.0
    folders: dict[str, float] = defaultdict(float)
    for name, used in files.items():
        folders["/".join(name.split("/")[:2])] += used
    lines = [f"processor time: {total:.0f} s in all (tests and the children they waited for)"]
    lines += [f"  {used:6.0f} s {used / total:4.0%} {folder}"
              for folder, used in sorted(folders.items(), key=lambda kv: -kv[1])]
    lines += [f"  {used:6.0f} s {used / total:4.0%}   {name}"
              for name, used in sorted(files.items(), key=lambda kv: -kv[1])[:20]]
    return lines
