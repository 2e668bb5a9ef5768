"""Issue 30, the student's pre-check: the kit unzipped and run in a fresh virtual environment
holding only its requirements.txt, on real samples, says things in words a first-year student
reads: their own function named, paths relative to their folder, the style verdict as the
instructor charges it, and the public part's points."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from graders.pack import get_pack
from tests.kit.test_kit_venv import run_precheck

POINTS = re.compile(r"^Public part: [\d.]+ / [\d.]+ points; hidden tests make up the rest\.$",
                    re.M)


def precheck(pack_id: str, sample: str, kit_zip, kit_python, tmp_path: Path):
    with zipfile.ZipFile(kit_zip(pack_id)) as archive:
        archive.extractall(tmp_path / "unzipped")
    kit = tmp_path / "unzipped" / f"{pack_id}-kit"
    python = kit_python(pack_id, kit / "requirements.txt")
    source = get_pack(pack_id).fixtures_dir / "submissions" / sample
    place = tmp_path / "run"
    place.mkdir()
    return run_precheck(python, kit, source, place, into_kit=True)


def test_an_exception_names_the_students_own_method_and_paths_are_theirs(
        kit_zip, kit_python, tmp_path):
    code, printed, _, verdict = precheck("game_of_nim", "bare_template", kit_zip, kit_python,
                                         tmp_path)
    assert code == 1 and verdict, printed
    assert "your `GameOfNim.__init__` (game_of_nim.py, line 23) raised NotImplementedError" \
        in printed, printed
    assert not re.search(r"`(play|choose|replay|terminal|first_utility)` raised", printed)
    assert "/sandbox" not in printed and " at 0x" not in printed
    assert len(POINTS.findall(printed)) == 1, printed


def test_style_shows_the_instructors_verdict(kit_zip, kit_python, tmp_path):
    pack = get_pack("stonehenge")
    expected = json.loads((pack.fixtures_dir / "submissions" / "style_many_messages" /
                           "expected.json").read_text(encoding="utf-8"))
    style = next(c for c in pack.declaration.criteria if c.id == "style")
    code, printed, _, verdict = precheck("stonehenge", "style_many_messages", kit_zip,
                                         kit_python, tmp_path)
    assert code == 1, printed
    lost = style.points - expected["criteria"]["style"]
    block = re.split(r"\n  (?=\S)", printed.split("test_style_python_ta", 1)[1])[0]
    counted = re.search(r"counted: (\d+) kind\(s\) of message, 1 point\(s\) each, so "
                        rf"-{lost:g} of {style.points:g} points:", block)
    assert counted, block
    kinds = re.findall(r"^ {9}([CREWF]\d{4} [\w-]+): \d+x, e\.g\. ", block, re.M)
    assert len(kinds) == int(counted[1]) == lost  # every counted kind, none hidden
    assert "more kinds" not in block
    assert not any(kind.startswith(tuple(style.free_kinds)) for kind in kinds)
    tested = next(t for t in verdict["tests"] if t["name"] == "test_style_python_ta")
    free = sorted(k for k in tested["details"]["kinds"] if k.startswith(tuple(style.free_kinds)))
    if free:
        assert block.index("listed, not counted") > block.index(kinds[-1])
        assert all(kind in block.split("listed, not counted", 1)[1] for kind in free)
    assert len(POINTS.findall(printed)) == 1, printed


@pytest.mark.parametrize("text", ["'<function query_player at 0x7f3a2c1d9e50>'",
                                  "<games.GameState object at 0x7f3a2c1d9e50>"])
def test_an_object_repr_says_what_was_expected(text):
    from graders.verdict import plain_words

    said = plain_words(f"returned {text}", {}, {})
    assert "0x" not in said and "a plain value" in said


def test_a_slip_says_where_it_is_charged_once(kit_zip, kit_python, tmp_path):
    """A stonehenge capture-rule slip fails board tests that list it at 0 points: the pre-check
    says so and names the criterion that charges it once (the criteria match tests by pattern,
    `test_board_*`)."""
    pack = get_pack("stonehenge")
    game = next(c for c in pack.declaration.criteria if c.id == "game")
    code, printed, _, verdict = precheck("stonehenge", "ley_line_needs_more_than_half", kit_zip,
                                         kit_python, tmp_path)
    assert code == 1 and verdict, printed
    board = printed.split("FAIL test_board_side_1_first_move [A]", 1)[1].split("\n  FAIL", 1)[0]
    weight = game.causes["capture-more-than-half"]
    assert (f'kind of slip: your game captures a ley-line only with MORE than half of its cells '
            f'(the handout: at least half) (0 points here: charged once under "game", '
            f'-{weight:g} points)') in board, board
    assert f"(charged once: -{weight:g} points, however many cases show it)" in printed


def test_a_run_that_leaves_public_tests_out_gives_no_verdict(kit_zip, kit_python, tmp_path):
    """`python -m pytest -k transcript` in the kit runs one of the public tests: the sample
    fails another, so "All public tests pass" and a points total would both be false."""
    import shutil
    import subprocess

    from tests.kit.test_kit_venv import precheck_environment, verdict_in

    with zipfile.ZipFile(kit_zip("altnim")) as archive:
        archive.extractall(tmp_path / "unzipped")
    kit = tmp_path / "unzipped" / "altnim-kit"
    python = kit_python("altnim", kit / "requirements.txt")
    sample = get_pack("altnim").fixtures_dir / "submissions" / "depth_off_by_one"
    shutil.copyfile(sample / "myAltNimFunctions.py", kit / "myAltNimFunctions.py")
    env = precheck_environment(tmp_path, None)
    del env["PYTEST_ADDOPTS"]
    done = subprocess.run([str(python), "-m", "pytest", "-k", "transcript"], cwd=kit, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    printed = done.stdout + done.stderr
    assert done.returncode == 1, printed
    assert "NOT FINISHED" in printed and "All public tests pass" not in printed, printed
    assert not POINTS.search(printed), printed
    verdict = verdict_in(tmp_path)
    assert verdict["finished"] is False and verdict["passed"] is False


def test_a_flood_of_output_is_stopped_at_the_cap_as_the_instructor_stops_it(
        kit_zip, kit_python, tmp_path):
    """A program printing 50 MB: the pre-check drains its output as it comes and stops it at
    the cap, as the instructor's sandbox does (it used to hold all of it, then cut it: an
    endless printer filled gigabytes of the student's memory)."""
    correct = get_pack("pnt").fixtures_dir / "submissions" / "correct" / "pnt.py"
    student = tmp_path / "student"
    student.mkdir()
    (student / "pnt.py").write_text(
        "import sys\nsys.stdout.write('x' * (50 * 1024 * 1024))\n" + correct.read_text(),
        encoding="utf-8")
    with zipfile.ZipFile(kit_zip("pnt")) as archive:
        archive.extractall(tmp_path / "unzipped")
    kit = tmp_path / "unzipped" / "pnt-kit"
    python = kit_python("pnt", kit / "requirements.txt")
    (tmp_path / "run").mkdir()
    code, printed, _, verdict = run_precheck(python, kit, student, tmp_path / "run",
                                             into_kit=True)
    assert code == 1 and verdict, printed
    stopped = [t for t in verdict["tests"] if "printed more than 256 KB and was stopped"
               in t["message"]]
    assert stopped and all(t["outcome"] == "failed" for t in stopped), printed[-3000:]
