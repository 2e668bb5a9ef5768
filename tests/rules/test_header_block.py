"""Rule ``header-block``: a filled-in header comment block opens the file."""

from __future__ import annotations

import pydantic
import pytest
from rules_testkit import ALTNIM_OPTIONS, example, lines, run_altnim, run_rule

from graders.rules import get_rule

FIELDS = ALTNIM_OPTIONS["header-block"]["fields"]


def test_filled_header_passes() -> None:
    assert run_altnim("header-block", example("clean_altnim_solution.py")) == []


def test_bare_template_header_names_every_unfilled_field() -> None:
    found = run_altnim("header-block", example("altnim_template_example.template"))
    assert lines(found) == [4, 5, 6]
    assert "`Student Name` still holds the placeholder `XXXXXXXXXXXXXXXX`" in found[0].message
    assert "`Login Name`" in found[1].message
    assert "`MUN #`" in found[2].message


def test_unfilled_and_empty_fields() -> None:
    found = run_altnim("header-block", example("header_block_unfilled.py"))
    assert [v.rule for v in found] == ["header-block"] * 2
    assert lines(found) == [5, 6]
    assert "`Login Name` still holds the placeholder `XXXXXXXX`" in found[0].message
    assert "`MUN #` is empty" in found[1].message


def test_missing_block() -> None:
    [violation] = run_altnim("header-block", example("header_block_missing.py"))
    assert violation.line == 1
    assert "no header comment block" in violation.message
    assert "`Student Name:`" in violation.message


def test_block_not_at_the_top() -> None:
    [violation] = run_altnim("header-block", example("header_block_not_at_top.py"))
    assert violation.line == 2
    assert "very first thing in the file" in violation.message


def test_shebang_may_come_first() -> None:
    source = "#!/usr/bin/env python3\n" + example("clean_altnim_solution.py")
    assert run_altnim("header-block", source) == []


def test_missing_field_line() -> None:
    source = example("clean_altnim_solution.py").replace(
        "##         Login Name: aexample                        ##\n", ""
    )
    [violation] = run_altnim("header-block", source)
    assert "has no `Login Name:` line" in violation.message
    assert "(lines 1–6)" in violation.message


def test_first_line_pattern() -> None:
    source = "# ----\n" + "\n".join(example("clean_altnim_solution.py").splitlines()[1:])
    [violation] = run_altnim("header-block", source)
    assert violation.line == 1
    assert "starts with `# ----`" in violation.message


@pytest.mark.parametrize(
    ("value", "filled"),
    [("XXXX", False), ("x X x", False), ("", False), ("Xavier", True), ("C# fan", True)],
)
def test_placeholder_values(value: str, filled: bool) -> None:
    source = f"## Student Name: {value}   ##\n"
    found = run_rule("header-block", source, {"fields": ["Student Name"]})
    assert (found == []) is filled


def test_other_placeholder_char_and_spacing_of_labels() -> None:
    source = "#  student   name :  ____\n"
    options = {"fields": ["Student Name"], "placeholder_char": "_"}
    [violation] = run_rule("header-block", source, options)
    assert "placeholder `____`" in violation.message


def test_needs_no_tree_so_broken_files_still_get_header_feedback() -> None:
    assert get_rule("header-block").needs_tree is False
    source = example("header_block_unfilled.py") + "\ndef broken(:\n"
    assert lines(run_rule("header-block", source, {"fields": FIELDS})) == [5, 6]


@pytest.mark.parametrize(
    "options",
    [{"placeholder_char": "XX"}, {"first_line_pattern": "("}, {"field": ["Name"]}],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(pydantic.ValidationError):
        get_rule("header-block")(options)
