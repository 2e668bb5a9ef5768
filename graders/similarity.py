"""Similarity between students' submissions, for a TA to look at (never a mark).

Built on copydetect (winnowed fingerprints of each program's token stream, names and literals
normalised by its filter), the method MOSS made common. Each student's Python files are
joined, in name order, into one document, so code moved between functions or files still
matches. Every fingerprint of the starter files is boilerplate: code the course gave everyone
never counts as shared.

copydetect hashes k-grams with Python's ``hash()``, so which fingerprints a window keeps can
vary from one process to the next (unless ``PYTHONHASHSEED`` is set): figures may move by a few
per cent between runs, never a near-copy's place at the top.
"""

from __future__ import annotations

import io
import itertools
import tempfile
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from copydetect import CodeFingerprint, compare_files

from graders.errors import GraderError
from graders.pack import Pack
from graders.submissions import find_submissions, prepare

NOISE_TOKENS = 25  # matches shorter than this are never reported (copydetect's noise_t)
GUARANTEE_TOKENS = 30  # matches this long are always found (copydetect's guarantee_t)
DOCUMENT = "submission.py"  # the name tells copydetect's filter the language
LISTING_PER_COMPARISON = 50  # listing a pair costs ~1 us, comparing one ~0.3 ms (measured)


@dataclass(frozen=True)
class Match:
    """Where two documents share code: character ranges in each one's text."""

    text: str
    spans: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class SimilarPair:
    """Two students whose code overlaps; ``similarity`` is the larger of the two shares of
    each one's tokens found in the other (0..1)."""

    first: str
    second: str
    similarity: float
    shared_tokens: int
    first_match: Match
    second_match: Match


def joined_document(files: Mapping[str, str]) -> str:
    """One student's Python files as one text, each under a comment naming it."""
    return "".join(
        f"# ---- {name}\n{text.rstrip()}\n\n"
        for name, text in sorted(files.items())
        if name.endswith(".py")
    )


def boilerplate_of(starter: Mapping[str, str]) -> np.ndarray:
    """The fingerprints of the starter files: code every student was given."""
    starter_prints = fingerprint(joined_document(starter), np.array([], dtype=np.int64))
    return np.array(sorted(starter_prints.hashes), dtype=np.int64)


def similar_pairs(
    submissions: Mapping[str, Mapping[str, str]],
    starter: Mapping[str, str],
    *,
    threshold: float = 0.5,
    made: Mapping[str, CodeFingerprint] | None = None,
) -> list[SimilarPair]:
    """Every pair of students at or above ``threshold``, most similar first. ``made``: the
    fingerprints already made in this process, by document (:func:`fingerprint` with this
    starter's :func:`boilerplate_of`); the others are made here."""
    made = made or {}
    boilerplate: np.ndarray | None = None
    prints: dict[str, CodeFingerprint] = {}
    for student, files in sorted(submissions.items()):
        document = joined_document(files)
        found = made.get(document)
        if found is None:
            if boilerplate is None:
                boilerplate = boilerplate_of(starter)
            found = fingerprint(document, boilerplate)
        prints[student] = found
    pairs = []
    for first, second in candidate_pairs(prints):
        pair = _compare(first, second, prints[first], prints[second])
        if pair is not None and pair.similarity >= threshold:
            pairs.append(pair)
    pairs.sort(key=lambda pair: (-pair.similarity, pair.first, pair.second))
    return pairs


def candidate_pairs(prints: Mapping[str, CodeFingerprint]) -> list[tuple[str, str]]:
    """The pairs that share at least one fingerprint, found through an index from each
    fingerprint to the students holding it (as MOSS does): any other pair has no overlap,
    so comparing only these gives exactly the all-pairs result, at a fraction of the cost in
    a class of mostly independent work. Where listing them would cost more than comparing
    every pair (fingerprints that most of the class holds), every pair is compared."""
    holders: dict[int, list[str]] = defaultdict(list)
    for student, prints_of in sorted(prints.items()):
        for value in {int(h) for h in prints_of.hashes}:
            holders[value].append(student)
    everyone = len(prints) * (len(prints) - 1) // 2
    listed = sum(len(s) * (len(s) - 1) // 2 for s in holders.values())
    if listed > LISTING_PER_COMPARISON * everyone:
        return list(itertools.combinations(sorted(prints), 2))
    found: set[tuple[str, str]] = set()
    for students in holders.values():
        found.update(itertools.combinations(students, 2))
    return sorted(found)


def fingerprint(text: str, boilerplate: np.ndarray) -> CodeFingerprint:
    """One student's :func:`joined_document`, fingerprinted with ``boilerplate`` left out."""
    return CodeFingerprint(
        DOCUMENT,
        NOISE_TOKENS,
        GUARANTEE_TOKENS - NOISE_TOKENS + 1,
        boilerplate=boilerplate,
        fp=io.StringIO(text),
    )


def _compare(
    first: str, second: str, one: CodeFingerprint, two: CodeFingerprint
) -> SimilarPair | None:
    if not len(one.hashes) or not len(two.hashes):
        return None
    overlap, (share_one, share_two), (slices_one, slices_two) = compare_files(one, two)
    if not overlap:
        return None
    return SimilarPair(
        first=first,
        second=second,
        similarity=round(float(max(share_one, share_two)), 3),
        shared_tokens=int(overlap),
        first_match=Match(one.raw_code, _spans(slices_one)),
        second_match=Match(two.raw_code, _spans(slices_two)),
    )


def _spans(slices: np.ndarray) -> tuple[tuple[int, int], ...]:
    starts, ends = slices[0], slices[1]
    return tuple((int(start), int(end)) for start, end in zip(starts, ends, strict=True))


def collect_sources(pack: Pack, paths: tuple[Path, ...]) -> dict[str, dict[str, str]]:
    """Each student's Python files, collected as grading collects them (never run)."""
    found: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="grade-similarity-") as work:
        for index, source in enumerate(s for p in paths for s in find_submissions(p)):
            submission = prepare(source, pack, Path(work) / str(index))
            if submission.id in found:
                raise GraderError(f"two submissions are called {submission.id!r}")
            found[submission.id] = dict(submission.files)
    return found


def starter_sources(pack: Pack) -> dict[str, str]:
    """The starter kit's Python files and templates, by name."""
    spec = pack.declaration.submission
    names = {*spec.templates.values(), *pack.declaration.locked.files}
    return {name: pack.template_text(name) for name in sorted(names)
            if name.endswith((".py", ".template"))}
