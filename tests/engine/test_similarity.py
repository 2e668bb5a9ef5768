"""Similarity for the TA: near-copies first, independent work and starter code nowhere."""

from __future__ import annotations

import itertools
import threading
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
    from graders.similarity import candidate_pairs, fingerprint

    class_ = submissions("original", "renamed")
    for n in range(4):  # too short to hold a fingerprint
        class_[f"tiny{n}"] = {FILE: f"x = {n}\n"}
    empty = np.array([], dtype=np.int64)
    prints = {name: fingerprint(joined_document(files), empty)
              for name, files in class_.items()}
    assert candidate_pairs(prints) == [("original", "renamed")]


def test_fingerprints_made_while_grading_give_the_same_pairs(monkeypatch):
    """A batch fingerprints each result in a thread as it comes back; the index's comparison
    then finds exactly the pairs it finds making every fingerprint itself, and the thread is
    gone once the batch closes it."""
    from graders.report import similar
    from graders.results import SubmissionResult

    names = ["original", "renamed", "reordered", "independent"]
    results = [SubmissionResult(student=name, assignment=PACK.id, assignment_title="",
                                status="graded", isolation="", files=files)
               for name, files in submissions(*names).items()]
    prints = similar.Fingerprinting(PACK, len(results))
    for result in results:
        prints.add(result)
    made = prints.made()
    assert len(made) == len(names)
    from graders import similarity

    made_here = []
    real = similarity.fingerprint
    monkeypatch.setattr(similarity, "fingerprint",
                        lambda *args: made_here.append(args) or real(*args))
    warm = similar.section(PACK, results, threshold=0.3, fingerprints=prints)
    assert made_here == []  # the comparison made none of its own
    cold = similar.section(PACK, results, threshold=0.3)
    assert len(made_here) == len(names) + 1  # the starter's too
    assert warm == cold and len(warm.pairs) == 3 and not warm.note
    prints.close()
    assert not any(t.name.startswith("fingerprints") for t in threading.enumerate())


def test_a_class_too_large_to_compare_while_grading_is_not_fingerprinted():
    from graders.report import similar
    from graders.results import SubmissionResult

    prints = similar.Fingerprinting(PACK, similar.MAX_STUDENTS + 1)
    prints.add(SubmissionResult(student="a", assignment=PACK.id, assignment_title="",
                                status="graded", isolation="",
                                files=submissions("original")["original"]))
    assert prints.made() == {}
    prints.close()
