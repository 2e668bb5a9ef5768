"""Students are who they say they are: one injective rule from a submission's name to its id,
slug, workspace, report and row; no two hand-ins are ever merged or swapped."""

from __future__ import annotations

import unicodedata
import zipfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from graders.batch import BatchRequest, grade_batch
from graders.pack import get_pack
from graders.submissions import find_submissions, slugify, student_id
from graders.testing import grading_settings

PACK = get_pack("altnim")
GOOD = (PACK.reference_dir / "myAltNimFunctions.py").read_text()
NOTHING = "# nothing here\n"

COLLISION_CLASSES = {
    "safe vs unsafe that slugs alike": ["a b", slugify("a b")],
    "case only": ["Alice", "alice", "ALICE"],
    "normalisation forms": [unicodedata.normalize("NFC", "José"),
                            unicodedata.normalize("NFD", "José")],
    "look-alike letters": ["anna", "\u0430nna"],  # Cyrillic a
    "long names with one prefix": ["x" * 90 + "1", "x" * 90 + "2"],
    "hashed-looking plain name": ["bob", "bob-0123456789"],
}


def test_every_collision_class_gets_distinct_slugs_even_ignoring_case():
    for what, names in COLLISION_CLASSES.items():
        slugs = [slugify(name).casefold() for name in names]
        assert len(set(slugs)) == len(names), what


@grading_settings(max_examples=300)
@given(st.text(min_size=1, max_size=120), st.text(min_size=1, max_size=120))
def test_slugs_are_injective(first: str, second: str):
    if first != second:
        assert slugify(first).casefold() != slugify(second).casefold()


def test_a_folder_and_a_zip_with_one_stem_are_two_students(tmp_path: Path):
    (tmp_path / "alice").mkdir()
    with zipfile.ZipFile(tmp_path / "alice.zip", "w") as archive:
        archive.writestr("myAltNimFunctions.py", GOOD)
    ids = sorted(student_id(path) for path in find_submissions(tmp_path))
    assert ids == ["alice", "alice.zip"]


def hand_in(folder: Path, text: str) -> None:
    folder.mkdir(parents=True)
    (folder / "myAltNimFunctions.py").write_text(text, encoding="utf-8")


def test_look_alikes_and_twins_are_graded_each_on_their_own_code(tmp_path: Path):
    batch = tmp_path / "class"
    hand_in(batch / "a b", GOOD)
    hand_in(batch / slugify("a b"), NOTHING)  # the attacker names their folder as the slug
    hand_in(batch / "Bob", GOOD)
    hand_in(batch / "bob", NOTHING)
    hand_in(batch / "carol", GOOD)
    with zipfile.ZipFile(batch / "carol.zip", "w") as archive:
        archive.writestr("myAltNimFunctions.py", NOTHING)
    out = tmp_path / "reports"
    outcome = grade_batch(BatchRequest(pack=PACK, sources=find_submissions(batch),
                                       out_dir=out, fresh=True))
    totals = {result.student: result.total for result in outcome.results}
    assert len(totals) == 6
    honest = {"a b", "Bob", "carol"}
    assert all(totals[name] > 50 for name in honest), totals
    assert all(total == 0 for name, total in totals.items() if name not in honest), totals
    pages = {path.name for path in (out / "students").glob("*.html")}
    assert len(pages) == 6
