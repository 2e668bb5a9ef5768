"""What a submission's code answered while it was graded: its transcript, and how two differ.

While a mutation run checks its exclusions, every answer a watched submission's code gives the
grader is appended to ``<folder>/<student>.jsonl``: each driver operation (the worker it ran in,
its arguments, the value or the exception) and each program run (argv, stdin, stdout, exit
status). The folder is named by :data:`ENV` and a submission is watched when its file exists
before grading starts, so the grading processes of a pool (which inherit the environment)
record without any other wiring. :func:`differences` compares a mutant's transcript with the
unmutated reference's, in the order the reference was asked.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENV = "GRADER_OBSERVE_DIR"
MISSING = "(not asked)"
# Keys of a driver's answer that measure the run, not the code's answer (a strategy that
# reports how long its search took): two runs of the same code differ there.
VOLATILE = frozenset({"seconds"})


def transcript_file(student: str) -> Path | None:
    """Where ``student``'s answers go, or None when nobody watches them."""
    folder = os.environ.get(ENV)
    if not folder:
        return None
    path = Path(folder) / f"{student}.jsonl"
    return path if path.is_file() else None


def note(student: str, entry: dict[str, Any]) -> None:
    """Append one answer to ``student``'s transcript (nothing when not watched)."""
    path = transcript_file(student)
    if path is not None:
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(entry, sort_keys=True, default=repr) + "\n")


def watch_worker(worker: Any, student: str, key: str) -> None:
    """Record every operation ``worker`` runs for ``student`` (``key`` tells its workers apart:
    the student's own, or a mix with reference files)."""
    if transcript_file(student) is None:
        return
    inner: Callable[..., dict[str, Any]] = worker.call_raw

    def call_raw(op: str, *args: Any, stdin: str | None = None, timeout: float | None = None,
                 **kwargs: Any) -> dict[str, Any]:
        asked = {"at": key, "op": op, "args": list(args), "kwargs": kwargs, "stdin": stdin}
        try:
            response = inner(op, *args, stdin=stdin, timeout=timeout, **kwargs)
        except Exception as exc:
            note(student, {**asked, "answer": {"raised": type(exc).__name__}})
            raise
        note(student, {**asked, "answer": answer_of(response)})
        return response

    setattr(worker, "call_raw", call_raw)  # noqa: B010 -- Worker.call reaches it through self


def note_run(student: str, argv: list[str], stdin: str, run: Any) -> None:
    """Record one program run of ``student``'s workspace."""
    note(student, run_entry(argv, stdin, run))


def run_entry(argv: list[str], stdin: str, run: Any) -> dict[str, Any]:
    """A transcript entry for one program run (a :class:`~graders.sandbox.RunResult`)."""
    return {"at": "program", "op": "program", "args": argv, "kwargs": {}, "stdin": stdin,
            "answer": {"stdout": run.stdout, "exit": run.exit_code, "timed_out": run.timed_out}}


def answer_of(response: dict[str, Any]) -> dict[str, Any]:
    """What the code answered, without what differs between two correct runs (tracebacks
    name the scratch folder; timings)."""
    if response.get("ok"):
        return {"value": response.get("value"), "stdout": response.get("stdout", "")}
    error = response.get("error") or {}
    return {"error": error.get("type"), "message": error.get("message"),
            "stdout": response.get("stdout", "")}


@dataclass(frozen=True)
class Difference:
    """One place where the mutant answered otherwise than the reference."""

    op: str
    path: str          # inside the answer: keys and indexes, e.g. ``value[2].rough``
    asked: str         # the call, shortened, for the reader
    reference: Any
    mutant: Any

    @property
    def where(self) -> str:
        """``op`` and the path's keys without list indexes: what an entry's ``differs`` names."""
        keys = [part for part in self.path.replace("[", ".[").split(".")
                if part and not part.startswith("[")]
        return ".".join([self.op, *keys])

    def describe(self) -> str:
        """The call, where in its answer, and both values (of text: the first line that
        differs)."""
        where, ours, theirs = self.path or "answer", self.reference, self.mutant
        if isinstance(ours, str) and isinstance(theirs, str) and "\n" in ours + theirs:
            mine, other = ours.splitlines(), theirs.splitlines()
            line = next((i for i, (a, b) in enumerate(zip(mine, other, strict=False)) if a != b),
                        min(len(mine), len(other)))
            where = f"{where} line {line + 1}"
            ours = mine[line] if line < len(mine) else "(no such line)"
            theirs = other[line] if line < len(other) else "(no such line)"
        return f"{self.asked}: {where} is {_short(theirs)} where the reference gives {_short(ours)}"


def read_transcript(path: Path) -> list[dict[str, Any]]:
    """The entries of one transcript file (none when it is missing)."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def differences(reference: list[dict[str, Any]],
                mutant: list[dict[str, Any]]) -> list[Difference]:
    """Every difference, in the order the reference was asked; then whatever only the mutant
    was asked."""
    theirs = _answers(mutant)
    ours = _answers(reference)
    found: list[Difference] = []
    for key, entry in ours.items():
        other = theirs.get(key, {"answer": MISSING})
        found += _compare(entry, entry["answer"], other["answer"])
    for key, entry in theirs.items():
        if key not in ours:
            found += _compare(entry, MISSING, entry["answer"])
    return found


def _answers(transcript: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The first answer to each distinct call, in order."""
    found: dict[str, dict[str, Any]] = {}
    for entry in transcript:
        key = json.dumps([entry["at"], entry["op"], entry["args"], entry["kwargs"],
                          entry["stdin"]], sort_keys=True)
        found.setdefault(key, entry)
    return found


def _compare(entry: dict[str, Any], ours: Any, theirs: Any) -> list[Difference]:
    asked = _clip(f"{entry['op']}({', '.join(map(repr, entry['args']))})", 160)
    if entry["at"] not in ("program", "student"):
        asked += f" [in {entry['at']}]"
    return [Difference(entry["op"], path, asked, a, b) for path, a, b in _leaves("", ours, theirs)]


def _leaves(path: str, ours: Any, theirs: Any) -> Iterator[tuple[str, Any, Any]]:
    """The innermost places where two plain values differ."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in [k for k in [*ours, *(k for k in theirs if k not in ours)]
                    if k not in VOLATILE]:
            yield from _leaves(f"{path}.{key}" if path else str(key),
                               ours.get(key, MISSING), theirs.get(key, MISSING))
    elif isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        for index, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            yield from _leaves(f"{path}[{index}]", a, b)
    elif ours != theirs or type(ours) is not type(theirs):
        yield path, ours, theirs


def _short(value: Any) -> str:
    return _clip(json.dumps(value, default=repr), 120)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
