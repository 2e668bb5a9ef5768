"""The similarity section of the index: pairs of students whose code overlaps, side by side.

Computed with :func:`graders.similarity.similar_pairs` over the files in the results, the pack's
starter files counting as boilerplate (so code the course gave everyone never counts). It never
changes a mark, and it can never break a batch: any failure becomes a note in the section.

Fingerprinting a student (lexing their code) is most of the cost: about 40 ms each, so 150
students were 6 s of the parent alone at the end of a batch, its workers done. A batch hands
each graded result to :class:`Fingerprinting` as it comes back, which fingerprints it in a
thread of the parent (which otherwise only waits for its workers); the index then compares.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import traceback
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from graders.pack import Pack
from graders.report import views
from graders.report.source import lines_of
from graders.results import SubmissionResult, write_atomic

THRESHOLD = 0.5  # the share of one student's code found in the other's
MAX_PAIRS = 25  # pairs listed
MAX_SIDE_BY_SIDE = 10  # of those, pairs shown with their matches side by side
MAX_LINES = 80  # lines shown per side (a whole copied program is not needed to see it)
MAX_STUDENTS = 400  # pairs grow as n^2: a larger class is compared by `grade similarity`
CONTEXT = 2  # unmatched lines kept around each match
FAILED = "The similarity check failed (the marks are not affected):\n"


@dataclass
class Section:
    """What the index shows: the pairs (most similar first) or why there are none."""

    threshold: float
    compared: int = 0
    pairs: list[dict[str, Any]] = field(default_factory=list)
    more: int = 0  # pairs above the threshold not shown
    side_by_side: int = MAX_SIDE_BY_SIDE
    note: str = ""


class Fingerprinting:
    """The fingerprints of the results a batch will compare, made in a thread as they come.

    ``students``: how many the batch holds; more than :data:`MAX_STUDENTS` are never compared
    while grading, so nothing is made. Stopped by :meth:`close` (what is queued is dropped)."""

    def __init__(self, pack: Pack, students: int) -> None:
        self.pack = pack
        self.wanted = 2 <= students <= MAX_STUDENTS
        self._pool: ThreadPoolExecutor | None = None
        self._boilerplate: Future[Any] | None = None
        self._made: list[Future[tuple[str, Any]]] = []

    def add(self, result: SubmissionResult) -> None:
        """Fingerprint ``result``'s compared files in the thread (never raises)."""
        if not self.wanted:
            return
        try:
            files = _compared(result)
            if not any(name.endswith(".py") for name in files):
                return
            if self._pool is None:  # copydetect is imported there too, not in the batch
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="fingerprints")
                self._boilerplate = self._pool.submit(_boilerplate, self.pack)
            self._made.append(self._pool.submit(self._fingerprint, files))
        except Exception:  # noqa: BLE001 - the comparison makes what is missing
            return

    def _fingerprint(self, files: dict[str, str]) -> tuple[str, Any]:
        from graders.similarity import fingerprint, joined_document  # noqa: PLC0415

        assert self._boilerplate is not None
        document = joined_document(files)
        return document, fingerprint(document, self._boilerplate.result())

    def made(self) -> dict[str, Any]:
        """Every fingerprint made, by document (waiting for those still in the thread); one
        that failed is left for the comparison to make."""
        done = {}
        for future in self._made:
            with contextlib.suppress(Exception):
                document, prints = future.result()
                done[document] = prints
        return done

    def close(self) -> None:
        """Stop the thread; what is still queued is dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _boilerplate(pack: Pack) -> Any:
    from graders.similarity import boilerplate_of, starter_sources  # noqa: PLC0415

    return boilerplate_of(starter_sources(pack))


def section(pack: Pack, results: Sequence[SubmissionResult], threshold: float = THRESHOLD,
            cache: Path | None = None, fingerprints: Fingerprinting | None = None) -> Section:
    """The section for ``results``; never raises (a failure is the section's note). With a
    ``cache`` file, a batch whose files are all unchanged reuses the last comparison (a
    regrade or an override does not compare a large class again). ``fingerprints``: those
    the batch made while it graded."""
    try:
        # A team member's row is a copy of their team's submission (--teams), not work of
        # their own: compared, it would be a 100 % pair with each teammate.
        sources = {r.student: _compared(r) for r in results
                   if any(n.endswith(".py") for n in r.files) and "graded_with" not in r.lms}
        key = _key(pack, sources, threshold)
        reused = _cached(cache, key) if cache is not None else None
    except Exception:  # noqa: BLE001 - as below: never the marks' report
        return Section(threshold, note=FAILED + traceback.format_exc(limit=4)[-1500:])
    if reused is not None:
        return reused
    found = _computed(pack, sources, threshold, fingerprints.made() if fingerprints else None)
    if cache is not None and not found.note:  # a real comparison: worth keeping
        with contextlib.suppress(OSError, TypeError, ValueError):  # only a cache
            write_atomic(cache, json.dumps({"key": key, "section": asdict(found)}))
    return found


def _compared(result: SubmissionResult) -> dict[str, str]:
    """The files compared: those shown on the student page (a file too long for the page,
    linked instead, is not compared: three 1.9 MB helpers took a minute per pair)."""
    linked = views.linked_only(result)
    return {name: text for index, (name, text) in enumerate(result.files.items(), 1)
            if index not in linked}


def _key(pack: Pack, sources: dict[str, dict[str, str]], threshold: float) -> str:
    hasher = hashlib.sha256(f"{pack.id}\0{threshold}\0{MAX_PAIRS}\0{MAX_LINES}".encode())
    for student, files in sorted(sources.items()):
        hasher.update(student.encode("utf-8", "surrogatepass") + b"\0")
        for name, text in sorted(files.items()):
            hasher.update(name.encode("utf-8", "surrogatepass") + b"\0")
            hasher.update(text.encode("utf-8", "surrogatepass") + b"\0")
    return hasher.hexdigest()


def _cached(cache: Path, key: str) -> Section | None:
    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
        if data.get("key") != key:
            return None
        return Section(**data["section"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _computed(pack: Pack, sources: dict[str, dict[str, str]], threshold: float,
              made: Mapping[str, Any] | None = None) -> Section:
    found = Section(threshold=threshold, compared=len(sources))
    if len(sources) < 2:
        found.note = "Fewer than two submissions with Python files: nothing to compare."
        return found
    if len(sources) > MAX_STUDENTS:
        found.note = (f"{len(sources)} submissions: too many to compare while grading; run "
                      f"`grade similarity {pack.id} SUBMISSIONS/`.")
        return found
    try:
        from graders.similarity import similar_pairs, starter_sources

        pairs = similar_pairs(sources, starter_sources(pack), threshold=threshold, made=made)
        found.pairs = [_shown(pair, n < MAX_SIDE_BY_SIDE)
                       for n, pair in enumerate(pairs[:MAX_PAIRS])]
        found.more = max(0, len(pairs) - MAX_PAIRS)
    except Exception:  # noqa: BLE001 - a similarity bug must never cost the marks' report
        found.pairs = []
        found.note = FAILED + traceback.format_exc(limit=4)[-1500:]
    return found


def _shown(pair: Any, side_by_side: bool) -> dict[str, Any]:
    if not side_by_side:
        return {"first": pair.first, "second": pair.second, "similarity": pair.similarity,
                "shared_tokens": pair.shared_tokens, "left": [], "right": []}
    return {
        "first": pair.first,
        "second": pair.second,
        "similarity": pair.similarity,
        "shared_tokens": pair.shared_tokens,
        "left": excerpt(pair.first_match.text, pair.first_match.spans),
        "right": excerpt(pair.second_match.text, pair.second_match.spans),
    }


def excerpt(text: str, spans: Sequence[tuple[int, int]],
            context: int = CONTEXT) -> list[dict[str, Any] | None]:
    """The lines of ``text`` that hold matched characters (and ``context`` lines around
    them), each ``{"no", "parts": [(text, matched)]}``; None stands for skipped lines."""
    lines = lines_of(text)
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    marked = [[False] * len(line) for line in lines]
    hit: set[int] = set()
    for start, end in spans:
        for number, line_start in enumerate(starts):
            low, high = max(start, line_start), min(end, line_start + len(lines[number]))
            if low < high:
                hit.add(number)
                for column in range(low - line_start, high - line_start):
                    marked[number][column] = True
    keep = {n for h in hit for n in range(h - context, h + context + 1) if 0 <= n < len(lines)}
    shown: list[dict[str, Any] | None] = []
    for number, line in enumerate(lines):
        if len(shown) >= MAX_LINES:
            shown.append(None)
            break
        if number not in keep:
            if shown and shown[-1] is not None:
                shown.append(None)
            continue
        shown.append({"no": number + 1, "parts": _runs(line, marked[number])})
    return shown


def _runs(line: str, marked: list[bool]) -> list[tuple[str, bool]]:
    runs: list[tuple[str, bool]] = []
    for char, flag in zip(line, marked, strict=True):
        if runs and runs[-1][1] == flag:
            runs[-1] = (runs[-1][0] + char, flag)
        else:
            runs.append((char, flag))
    return runs
