"""Similarity for the TA: near-copies first, independent work and starter code nowhere."""

from __future__ import annotations

import itertools
from pathlib import Path

from graders.packs import get_pack
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
