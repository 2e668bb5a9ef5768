"""The parser of PNT program outputs (graders/packs/pnt/checks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graders.labelled import Field, parse_labelled
from graders.packs.pnt.checks import LABELS, NAMES, branching_matches, parse_output

OFFICIAL = Path(__file__).resolve().parents[3] / "student_templates" / "pnt"
SAMPLE = {"move": 6, "value": 1.0, "visited": 3, "evaluated": 1, "max_depth": 2, "branching": 1.0}
FLOATS = {"value", "branching"}

hypothesis_settings = settings(max_examples=200, deadline=None, derandomize=True, database=None)


def render(values: dict, spaces: list[str] | None = None, final_newline: bool = True) -> str:
    """Print `values` as a correct program would, with optional trailing spaces per line."""
    spaces = spaces or [""] * len(NAMES)
    rows = []
    for name, pad in zip(NAMES, spaces, strict=True):
        shown = f"{values[name]:.1f}" if name in FLOATS else str(values[name])
        rows.append(f"{LABELS[name]}: {shown}{pad}")
    return "\n".join(rows) + ("\n" if final_newline else "")


def test_official_outputs_parse_cleanly() -> None:
    parsed = parse_output((OFFICIAL / "output1.txt").read_text())
    assert parsed.values == {
        "move": 1,
        "value": -1.0,
        "visited": 4,
        "evaluated": 2,
        "max_depth": 2,
        "branching": 1.5,
    }
    assert parsed.format_ok
    for name in ("output2.txt", "output3.txt"):
        assert parse_output((OFFICIAL / name).read_text()).format_ok


def test_types_of_values() -> None:
    parsed = parse_output(render(SAMPLE))
    assert [type(parsed.values[n]) for n in NAMES] == [int, float, int, int, int, float]


@pytest.mark.parametrize(
    ("old", "new", "field", "value"),
    [
        ("Value: 1.0", "Value: 1.00", "value", 1.0),
        ("Value: 1.0", "Value: 1", "value", 1.0),
        ("Factor: 1.0", "Factor: 1.000", "branching", 1.0),
        ("Visited: 3", "Visited: 3.0", "visited", 3),
        ("Move: 6", "move: 6", "move", 6),
        ("Max Depth Reached: 2", "Max depth: 2", "max_depth", 2),
    ],
)
def test_format_problem_keeps_value(old: str, new: str, field: str, value: float) -> None:
    parsed = parse_output(render(SAMPLE).replace(old, new))
    assert parsed.values == SAMPLE | {field: value}
    assert list(parsed.problems) == [field]


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("Value: 1.0", "Value: one", "value"),
        ("Move: 6", "Move: 6.5", "move"),
        ("Move: 6", "Move: None", "move"),
        ("Value: 1.0", "Value: nan", "value"),
        ("Value: 1.0", "Value:", "value"),
    ],
)
def test_unreadable_value_is_none(old: str, new: str, field: str) -> None:
    parsed = parse_output(render(SAMPLE).replace(old, new))
    assert parsed.values[field] is None
    assert list(parsed.problems) == [field]


def test_wrong_label_with_an_extra_line_is_missing() -> None:
    text = "thinking...\n" + render(SAMPLE).replace("Number of Nodes Visited", "Visited")
    parsed = parse_output(text)
    assert parsed.values["visited"] is None
    assert parsed.problems["visited"] == ["missing line 'Number of Nodes Visited: ...'"]
    assert len(parsed.problems["layout"]) == 2  # the chatter and the mislabelled line


def test_layout_problems() -> None:
    lines = render(SAMPLE).splitlines()
    swapped = parse_output("\n".join([lines[1], lines[0], *lines[2:]]))
    assert swapped.values == SAMPLE
    assert swapped.problems == {"layout": ["the lines are not in the handout's order"]}
    blank = parse_output("\n".join([*lines[:3], "", *lines[3:]]))
    assert blank.values == SAMPLE and list(blank.problems) == ["layout"]
    repeated = parse_output(render(SAMPLE) + lines[0].replace("6", "7"))
    assert repeated.values["move"] == 6 and list(repeated.problems) == ["layout"]


def test_problem_lines_name_the_field() -> None:
    parsed = parse_output(render(SAMPLE).replace("Value: 1.0", "Value: 1.00"))
    assert parsed.problem_lines() == ["Value: expected one decimal place, got '1.00'"]


values = st.fixed_dictionaries(
    {
        "move": st.integers(1, 500),
        "value": st.sampled_from([-1.0, -0.7, -0.6, -0.5, 0.0, 0.5, 0.6, 0.7, 1.0]),
        "visited": st.integers(1, 10**7),
        "evaluated": st.integers(0, 10**7),
        "max_depth": st.integers(0, 60),
        "branching": st.integers(0, 999).map(lambda k: k / 10),
    }
)
trailing = st.lists(st.sampled_from(["", " ", "  ", "\t"]), min_size=6, max_size=6)


@hypothesis_settings
@given(values, trailing, st.booleans())
def test_round_trip_tolerates_trailing_space_and_final_newline(
    vals: dict, spaces: list[str], final_newline: bool
) -> None:
    parsed = parse_output(render(vals, spaces, final_newline))
    assert parsed.values == vals
    assert parsed.format_ok


@hypothesis_settings
@given(values, st.sampled_from(sorted(FLOATS)))
def test_two_decimals_are_a_problem_of_that_field_only(vals: dict, field: str) -> None:
    text = render(vals).replace(
        f"{LABELS[field]}: {vals[field]:.1f}", f"{LABELS[field]}: {vals[field]:.2f}"
    )
    parsed = parse_output(text)
    assert list(parsed.problems) == [field]
    assert parsed.values == vals


@hypothesis_settings
@given(values, st.integers(0, 5))
def test_missing_line_is_missing_field(vals: dict, index: int) -> None:
    lines = render(vals).splitlines()
    del lines[index]
    parsed = parse_output("\n".join(lines))
    assert parsed.values == vals | {NAMES[index]: None}
    assert list(parsed.problems) == [NAMES[index]]


@hypothesis_settings
@given(values, st.integers(0, 5), st.text("abcxyz ", min_size=1, max_size=12))
def test_wrong_label_is_a_problem(vals: dict, index: int, label: str) -> None:
    lines = render(vals).splitlines()
    lines[index] = f"{label}: " + lines[index].split(": ", 1)[1]
    parsed = parse_output("\n".join(lines))
    assert NAMES[index] in parsed.problems
    assert all(name == NAMES[index] for name in parsed.problems)


@hypothesis_settings
@given(st.text())
def test_any_text_parses_without_error(text: str) -> None:
    parsed = parse_output(text)
    assert set(parsed.values) == set(NAMES)
    assert parsed.format_ok == (not parsed.problem_lines())


@pytest.mark.parametrize(
    ("printed", "visited", "evaluated", "ok"),
    [
        (2.2, 12, 7, True),
        (2.3, 12, 7, False),
        (2.2, 10, 6, True),
        (2.3, 10, 6, True),
        (2.4, 10, 6, False),
        (1.9, 16, 8, True),
        (1.8, 16, 8, False),
        (1.88, 16, 8, True),
        (0.0, 1, 1, True),
        (1.0, 1, 1, False),
    ],
)
def test_branching_matches(printed: float, visited: int, evaluated: int, ok: bool) -> None:
    # 12/7: 11/5 = 2.2 exactly; 10/6: 9/4 = 2.25 is a tie, both roundings are accepted.
    assert branching_matches(printed, visited, evaluated) is ok


def test_labelled_fields_take_other_decimal_places() -> None:
    # The engine's reader is PNT's with the places as a parameter (graders/labelled.py).
    fields = [Field("mean", "Mean", float, decimals=2), Field("n", "Count")]
    parsed = parse_labelled("Mean: 2.5\nCount: 3\n", fields)
    assert parsed.values == {"mean": 2.5, "n": 3}
    assert parsed.problem_lines() == ["Mean: expected two decimal places, got '2.5'"]
    assert parse_labelled("Mean: 2.50\nCount: 3", fields).format_ok


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (render(SAMPLE) + "Execution time: 0.0123 seconds\n", ["extra-line-after"]),
        ("Searching...\n" + render(SAMPLE), ["extra-line"]),
        (render(SAMPLE).replace("Number of Nodes Visited", "Nodes Visited"), ["label-wording"]),
        (render(SAMPLE).replace("Move: 6", "move: 6"), ["label-wording"]),
        (render(SAMPLE).replace("Value: 1.0", "Value: 1.00"), ["number-format"]),
        (render(SAMPLE).replace("Move: 6\n", ""), ["missing-line"]),
        (render(SAMPLE).replace("Value: 1.0\n", "Value: 1.0\n\n"), ["blank-line"]),
        # The handout's sample as typeset: two fields on a line, both read.
        (render(SAMPLE).replace("Move: 6\n", "Move: 6 ").replace("Visited: 3\n", "Visited: 3, "),
         ["fields-on-one-line"]),
    ],
)
def test_each_problem_names_its_kind(text: str, kinds: list[str]) -> None:
    """One extra line after the six (a real program prints its running time) is its own
    kind of slip, apart from a label worded differently or a line missing."""
    parsed = parse_output(text)
    assert parsed.kinds == kinds
    missing = {"move": None} if kinds == ["missing-line"] else {}
    assert parsed.values == SAMPLE | missing  # each value is still read
    assert list(parsed.causes) == kinds and all(parsed.causes.values())


def test_an_extra_line_after_the_output_is_in_words_for_students() -> None:
    parsed = parse_output(render(SAMPLE) + "Execution time: 0.01 s")
    assert parsed.causes == {"extra-line-after": "an extra line after the output"}


def test_a_line_of_several_fields_names_each_and_cuts_no_label_inside_another() -> None:
    fields = [Field("depth", "Depth"), Field("max_depth", "Max Depth"), Field("n", "Count")]
    parsed = parse_labelled("Max Depth: 4 Depth: 2\nCount: 1", fields)
    assert parsed.values == {"depth": 2, "max_depth": 4, "n": 1}
    assert parsed.problem_lines() == [
        "output: line 1 holds 2 output lines: print each of 'Max Depth', 'Depth' on a line of "
        "its own", "output: the lines are not in the handout's order"]
    # Text before the first label: not a line of fields (left unread, as before).
    assert parse_labelled("Result Depth: 2 Count: 1", fields).values["depth"] is None
