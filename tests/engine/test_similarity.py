"""Similarity for the TA: near-copies first, independent work and starter code nowhere."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from graders.pack import get_pack
from graders.similarity import joined_document, similar_pairs

EXAMPLES = Path(__file__).with_name("similarity_examples")
PACK = get_pack("altnim")
FILE = "myAltNimFunctions.py"
STARTER = {FILE: PACK.template_text("myAltNimFunctions.template")}


def submissions(*names: str) -> dict[str, dict[str, str]]:
    return {name: {FILE: (EXAMPLES / f"{name}.py").read_text()} for name in names}


def test_near_copies_top_the_list_and_independent_work_is_absent():
    pairs = similar_pairs(
        submissions("original", "renamed", "reordered", "independent"), STARTER, threshold=0.3
    )
    named = [frozenset({pair.first, pair.second}) for pair in pairs]
    copies = {"original", "renamed", "reordered"}
    assert set(named) == {frozenset(pair) for pair in itertools.combinations(copies, 2)}
    # they share one 25-token run at most (`return eval(state, isMax)` and its neighbours)
    assert similar_pairs(submissions("original", "independent"), STARTER, threshold=0.1) == []
    assert pairs[0].similarity > 0.6


def test_starter_code_never_counts():
    handed_in = {
        "alice": dict(STARTER, **{FILE: STARTER[FILE]}),
        "bob": dict(STARTER, **{FILE: STARTER[FILE]}),
    }
    assert similar_pairs(handed_in, STARTER, threshold=0.0) == []


def test_matches_point_into_each_text():
    [pair, *_] = similar_pairs(submissions("original", "renamed"), STARTER, threshold=0.1)
    for match in (pair.first_match, pair.second_match):
        assert match.spans and all(0 <= a < b <= len(match.text) for a, b in match.spans)
        assert "def " in "".join(match.text[a:b] for a, b in match.spans)


def test_files_are_joined_in_name_order_with_their_names():
    text = joined_document({"b.py": "y = 2\n", "a.py": "x = 1\n", "notes.txt": "hi"})
    assert text == "# ---- a.py\nx = 1\n\n# ---- b.py\ny = 2\n\n"


def test_the_fingerprint_index_finds_exactly_what_comparing_every_pair_finds(monkeypatch):
    """Only pairs sharing a fingerprint are compared; the result is the all-pairs one."""
    import random

    from graders import similarity

    texts = sorted(p.read_text(errors="replace") for p in
                   Path("fixtures").glob("*/submissions/*/*.py") if 200 < p.stat().st_size < 9000)
    chosen = random.Random(7)
    class_ = {f"s{n:02}": {"a.py": "\n".join(chosen.sample(texts, 2))} for n in range(40)}
    indexed = similar_pairs(class_, {}, threshold=0.2)
    monkeypatch.setattr(similarity, "candidate_pairs",
                        lambda prints: list(itertools.combinations(sorted(prints), 2)))
    assert indexed == similar_pairs(class_, {}, threshold=0.2) and indexed


def test_students_who_share_no_fingerprint_are_never_compared():
    from graders.similarity import _fingerprint, candidate_pairs

    class_ = submissions("original", "renamed")
    for n in range(4):  # too short to hold a fingerprint
        class_[f"tiny{n}"] = {FILE: f"x = {n}\n"}
    empty = np.array([], dtype=np.int64)
    prints = {name: _fingerprint(joined_document(files), empty)
              for name, files in class_.items()}
    assert candidate_pairs(prints) == [("original", "renamed")]
