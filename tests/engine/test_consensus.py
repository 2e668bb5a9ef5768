"""The class consensus (graders/consensus.py) takes lines most of a batch shares for the
starter the class really had, but never a line inside a function the starter leaves for the
student to write: four students writing one forbidden line there are four students."""

from __future__ import annotations

from pathlib import Path

from graders.consensus import class_consensus
from graders.pack import get_pack
from graders.submissions import prepare

ALTNIM = get_pack("altnim")
FILE = "myAltNimFunctions.py"
CORRECT = (ALTNIM.fixtures_dir / "submissions" / "correct" / FILE).read_text(encoding="utf-8")
LEAF = "    return state.getNumMatchsticks() <= 1\n"  # the correct isLeaf's body
FORBIDDEN = "    return state.numMatchsticks <= 1\n"  # the same, reading the attribute
NAME = next(line for line in CORRECT.splitlines() if "Student Name:" in line)
SHARED = "## Submitted for CS 3200, Fall term"  # a line the class's starter could hold


def _own(text: str, number: int) -> str:
    """``text`` as student ``number`` hands it in: every header line their own."""
    return "\n".join(f"{line} {number}" if line.startswith("##") and number and
                     line.rstrip().endswith("##") else line for line in text.splitlines()) + "\n"


def _batch(tmp_path: Path, texts: list[str]):
    subs = []
    for number, text in enumerate(texts):
        folder = tmp_path / f"s{number}"
        folder.mkdir()
        (folder / FILE).write_text(text, encoding="utf-8")
        subs.append(prepare(folder, ALTNIM, tmp_path / f"work{number}"))
    return subs


def test_a_line_most_students_write_inside_a_stub_body_is_theirs(tmp_path: Path):
    assert LEAF in CORRECT
    shared = CORRECT.replace(LEAF, FORBIDDEN)
    texts = [_own(shared, n + 1) for n in range(4)] + [_own(CORRECT, 5), _own(CORRECT, 6)]
    assert class_consensus(ALTNIM, _batch(tmp_path, texts)) == ()


def test_a_line_outside_the_stub_bodies_is_still_the_class_starter(tmp_path: Path):
    shared = CORRECT.replace(NAME, f"{SHARED}\n{NAME}")
    texts = [_own(shared, n + 1) for n in range(4)] + [_own(CORRECT, 5), _own(CORRECT, 6)]
    found = class_consensus(ALTNIM, _batch(tmp_path, texts))
    assert [line for item in found for line in item.lines] == [SHARED]
