"""Rule checks judge only what the student wrote, reach helper modules, and survive sources
too deep for Python's parser."""

from __future__ import annotations

from pathlib import Path

from graders.checks import deepest_line, run_rules
from graders.pack import Pack, get_pack
from graders.specs import RuleSpec
from graders.starter import is_starter_line
from graders.submissions import prepare

STONEHENGE = get_pack("stonehenge")


def declaring(pack: Pack, **submission: object) -> Pack:
    spec = pack.declaration.submission.model_copy(update=submission)
    return Pack(pack.declaration.model_copy(update={"submission": spec}), pack.dir, pack.root)


def hand_in(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def reference() -> dict[str, str]:
    names = STONEHENGE.declaration.submission.files
    return {n: (STONEHENGE.reference_dir / n).read_text() for n in names}


def test_declared_starter_blocks_and_lines_are_starter_text():
    source = (
        "import sys\n"
        "class GameInterface:\n"
        "    x = 1\n"
        "def mine():\n"
        "    print('the starter printed exactly this line')\n"
        "if __name__ == '__main__':\n"
        "    run()\n"
    )
    pack = declaring(
        STONEHENGE,
        starter_owned={"x.py": ["GameInterface", "__main__"]},
        starter_text={"x.py": ["print('the starter printed exactly this line')"]},
    )
    starter = [n for n in range(1, 8) if is_starter_line(pack, "x.py", source, n)]
    assert starter == [2, 3, 5, 6, 7]


def test_a_violation_on_starter_text_costs_nothing(tmp_path: Path):
    files = reference()
    files["strategy.py"] += "\nfrom math import inf\nfrom os import path\n"
    pack = declaring(STONEHENGE, starter_text={"strategy.py": ["from math import inf"]})
    rule = RuleSpec(name="forbidden-import", files=["strategy.py"],
                    options={"allowed": ["from typing import Any"]})
    pack = Pack(pack.declaration.model_copy(update={"rules": [rule]}), pack.dir, pack.root)
    sub = prepare(hand_in(tmp_path / "s", files), pack, tmp_path / "w")
    found = [(v.rule, v.source_line) for v in run_rules(pack, sub)]
    assert ("forbidden-import", "from os import path") in found
    assert ("forbidden-import", "from math import inf") not in found


def test_rules_reach_helper_modules(tmp_path: Path):
    files = {**reference(), "tree.py": "def minimax(s):\n    return minimax(s)\n"}
    files["game_interface.py"] = "from tree import minimax\n" + files[
        "game_interface.py"].replace("'mi': iterative_minimax_strategy", "'mi': minimax")
    sub = prepare(hand_in(tmp_path / "s", files), STONEHENGE, tmp_path / "w")
    assert sub.helpers == ["tree.py"]
    hits = [v for v in run_rules(STONEHENGE, sub) if v.rule == "no-recursion"]
    assert [v.file for v in hits] == ["tree.py"]


def test_a_source_too_deep_to_parse_is_a_syntax_error_with_its_line(tmp_path: Path):
    files = reference()
    files["strategy.py"] += "\nX = " + "+".join(["1"] * 200_000) + "\n"
    files["stonehenge.py"] += "\nY = " + "-" * 100_000 + "1\n"
    sub = prepare(hand_in(tmp_path / "s", files), STONEHENGE, tmp_path / "w")
    found = {v.file: v for v in run_rules(STONEHENGE, sub) if v.rule == "syntax-error"}
    assert set(found) == {"strategy.py", "stonehenge.py"}
    expected = files["strategy.py"].count("\n")
    assert found["strategy.py"].line == expected
    assert "too deeply" in found["strategy.py"].message or "too" in found["strategy.py"].message


def test_deepest_line_points_at_the_nesting():
    assert deepest_line("a = 1\nb = ((((((1))))))\nc = 2\n") == 2
