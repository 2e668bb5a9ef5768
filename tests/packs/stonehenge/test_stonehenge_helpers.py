"""The stonehenge pack's parent-side helpers: token views, rough_outcome, explanations."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest
from stonehenge_boards import SIDE_2, SIDE_2_AGDEF

from graders.pack import get_pack
from graders.packs.stonehenge import checks, checks_strategies, oracle
from tests.in_process import workspace

PACK = get_pack("stonehenge")
TEMPLATES = PACK.templates_dir


def test_marker_places_follow_the_spec():
    """Side 2 read off the handout's board (SIDE_2); every line of every side has a place of
    its own, and it holds a marker on the empty board."""
    assert {name: checks.marker_place(2, name) for name, _ in oracle.geometry(2).lines} == {
        "h0": (1, 0), "h1": (2, 0), "h2": (3, 0), "dl0": (0, 0), "dl1": (0, 1), "dl2": (1, 3),
        "dr0": (3, 3), "dr1": (4, 1), "dr2": (4, 0)}
    for side in oracle.SIDES:
        empty = oracle.tokens(oracle.render(oracle.start(side)))
        places = {checks.marker_place(side, name) for name, _ in oracle.geometry(side).lines}
        assert len(places) == 3 * (side + 1)
        assert all(empty[row][column] == "@" for row, column in places)


def test_cells_leave_out_every_marker():
    assert checks.cells(SIDE_2, 2) == list("ABCDEFG")
    assert checks.cells(SIDE_2_AGDEF, 2) == ["1", "B", "C", "1", "2", "1", "2"]
    assert checks.cells(oracle.render(oracle.start(5)), 5) == list(oracle.LETTERS[:25])


def test_board_lines_ignore_spacing_and_art():
    squeezed = "\n".join(line.strip().replace("   ", " ") for line in SIDE_2.splitlines())
    assert checks.board_lines(squeezed) == checks.board_lines(SIDE_2)
    assert checks.board_lines(SIDE_2).splitlines()[1] == "@ A B @"


def test_board_lines_ignore_separators():
    """The course's tests: cells and markers "in the right spots and order", not the art."""
    plain = checks.board_lines(SIDE_2)
    dashes = SIDE_2.replace(" - ", "-")
    bars = SIDE_2.replace(" - ", " | ").replace("/", " ").replace("\\", " ")
    brackets = "\n".join(" ".join(f"[{t}]" for t in line.split() if t not in "-/\\")
                         for line in SIDE_2.splitlines())
    for text in (dashes, bars, brackets):
        assert checks.board_lines(text) == plain, text
    assert checks.board_lines(SIDE_2.replace("A - B", "B - A")) != plain


@pytest.mark.parametrize(("value", "moves", "ok"), [
    (-0.44, "", True), (0.17, "AG", True), (1.0, "", True), (1, "AGD", True),
    (-1, "AGDEF", True), (-1.0, "AGDEF", True), (0, "AGDEF", False), (1, "AGDEF", False),
    (1.5, "", False), (-2, "A", False), ("'1'", "", False), (True, "", False),
])
def test_rough_outcome_is_checked_only_where_the_spec_pins_it(value, moves, ok):
    view = oracle.views(2, True, moves)[-1]
    if ok:
        checks.expect_rough(value, view, "here")
    else:
        with pytest.raises(AssertionError):
            checks.expect_rough(value, view, "here")


def test_explain_choice_names_the_scores():
    text = checks_strategies.explain_choice(3, False, list("KACBFEGDI"), "J")
    assert "chose J, which guarantees only a loss; a win was possible with any of ['H']" in text
    assert "not a legal move" in checks_strategies.explain_choice(2, True, list("AFD"), "A")


def run_unittests(folder):
    return subprocess.run([sys.executable, "-m", "unittest", "stonehenge_unittest",
                           "minimax_unittest"], cwd=folder, capture_output=True, text=True,
                          timeout=120)


def test_starter_unit_tests_pass_on_the_reference(tmp_path):
    run = run_unittests(workspace(PACK, tmp_path, TEMPLATES, PACK.reference_dir))
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Ran 22 tests" in run.stderr


def test_starter_unit_tests_fail_on_the_bare_starter(tmp_path):
    run = run_unittests(workspace(PACK, tmp_path, TEMPLATES))
    assert run.returncode != 0 and "errors=22" in run.stderr


def test_every_template_file_parses():
    for path in TEMPLATES.glob("*.py"):
        ast.parse(path.read_text())
