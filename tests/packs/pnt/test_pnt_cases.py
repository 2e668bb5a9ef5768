"""The PNT test case file parser (graders/packs/pnt/checks.py) and the move rules (oracle.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graders.packs.pnt.checks import Position, format_cases, parse_cases
from graders.packs.pnt.oracle import legal_moves, position_error

OFFICIAL = Path(__file__).resolve().parents[3] / "student_templates" / "pnt" / "testcase.txt"


def test_official_testcase_file() -> None:
    cases = parse_cases(OFFICIAL.read_text())
    assert cases == {
        "input1": Position(3, (), 0),
        "input2": Position(7, (1,), 2),
        "input3": Position(10, (4, 2, 6), 4),
    }
    assert cases["input2"].argv() == ["7", "1", "1", "2"]


def test_official_case_3_breaks_the_first_move_rule() -> None:
    # The course's own case opens with 4; the grader still asks programs to answer it.
    assert "move 1 takes 4" in position_error(parse_cases(OFFICIAL.read_text())["input3"])


@pytest.mark.parametrize(
    "line",
    [
        "TakeTokens 7 3 1 4 2 3",
        "PNT Player 7 3 1 4 2 3",
        "PNTPlayer 7 3 1 4 2 3",
        "7 3 1 4 2 3",
        "  TakeTokens   7 3 1 4 2 3  ",
        "sample: TakeTokens 7 3 1 4 2 3",
    ],
)
def test_program_name_and_spacing_are_optional(line: str) -> None:
    [position] = parse_cases(line).values()
    assert position == Position(7, (1, 4, 2), 3) and position_error(position) is None


def test_unnamed_cases_are_numbered_and_comments_skipped() -> None:
    cases = parse_cases("# mine\n3 0 0\n\n7 1 1 2\n")
    assert list(cases) == ["case1", "case2"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("TakeTokens 7 3 1 4 2", "line 1: expected <#tokens>"),
        ("TakeTokens 7 1 1 2 0", "line 1: expected <#tokens>"),
        ("TakeTokens seven 0 0", "line 1: expected whole numbers"),
        ("Take 7 0 0", "line 1: expected whole numbers"),
        ("a:\n3 0 0\na:\n3 0 1", "line 4: a second case named 'a'"),
        ("a:\nb:\n3 0 0", "line 2: case 'a' has no arguments"),
        ("3 0 0\nlast:\n", "end of file: case 'last' has no arguments"),
    ],
)
def test_bad_files_name_the_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_cases(text)


@pytest.mark.parametrize(
    ("position", "problem"),
    [
        (Position(7, (2,), 0), "move 1 takes 2, but the legal moves are [1, 3]"),
        (Position(6, (3,), 0), "move 1 takes 3, but the legal moves are [1]"),
        (Position(7, (1, 1), 0), "move 2 takes 1"),
        (Position(7, (3, 6, 2, 4, 1, 7), 0), "the game is already over"),
        (Position(7, (1,), -1), "the depth must be 0 or more"),
        (Position(2, (), 0), "the game is already over"),
    ],
)
def test_position_errors(position: Position, problem: str) -> None:
    assert problem in position_error(position)


def test_legal_moves() -> None:
    assert legal_moves(7, [], None) == [1, 3]
    assert legal_moves(7, [3, 6], 6) == [1, 2]
    assert legal_moves(12, [1, 2, 12], 12) == [3, 4, 6]


@st.composite
def case_lists(draw) -> dict[str, Position]:
    """Distinctly named cases with structurally valid (not necessarily legal) arguments."""
    count = draw(st.integers(1, 5))
    cases = {}
    for i in range(count):
        taken = tuple(draw(st.lists(st.integers(1, 30), max_size=8)))
        name = draw(st.sampled_from(["input", "case", "hidden_"])) + str(i + 1)
        cases[name] = Position(draw(st.integers(1, 30)), taken, draw(st.integers(0, 9)))
    return cases


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(case_lists())
def test_format_then_parse_round_trips(cases: dict[str, Position]) -> None:
    assert parse_cases(format_cases(cases)) == cases
