"""Rule ``syntax-error``: a source that does not parse fails with the parser's message."""

from __future__ import annotations

import sys

import pytest
from rules_testkit import example, run_rule

from graders.rules import get_rule
from graders.rules.syntax_error import only_newer_python


def test_needs_no_tree() -> None:
    assert get_rule("syntax-error").needs_tree is False


def test_missing_colon_reports_line_column_and_parser_message() -> None:
    [violation] = run_rule("syntax-error", example("syntax_error_missing_colon.py"))
    assert violation.rule == "syntax-error"
    assert violation.line == 4
    assert violation.column == 22  # 0-based, like ast; the message says column 23
    assert "Line 4, column 23" in violation.message
    assert "expected ':'" in violation.message
    assert violation.source_line == "def getRemovals(state)"
    assert violation.fix


def test_indentation_error_has_its_own_wording() -> None:
    [violation] = run_rule("syntax-error", example("syntax_error_bad_indent.py"))
    assert violation.line == 5
    assert "indentation" in violation.message
    assert "expected an indented block" in violation.message


@pytest.mark.parametrize(
    ("source", "line", "words"),
    [
        ("x = 1\nreturn x\n", 2, "'return' outside function"),
        ("while True:\n    pass\nbreak\n", 3, "'break' outside loop"),
        ("s = 'open\n", 1, "unterminated string"),
        ("nonlocal x\n", 1, "nonlocal declaration not allowed at module level"),
    ],
)
def test_errors_found_after_parsing_count_too(source: str, line: int, words: str) -> None:
    [violation] = run_rule("syntax-error", source)
    assert violation.line == line
    assert words in violation.message


def test_nul_byte_is_a_failure_with_its_position() -> None:
    [violation] = run_rule("syntax-error", "x = 1\ny = 2\0\n")
    assert (violation.line, violation.column) == (2, 5)
    assert "NUL" in violation.message


@pytest.mark.parametrize("name", ["clean_altnim_solution.py", "module_global_forms.py"])
def test_valid_sources_pass(name: str) -> None:
    assert run_rule("syntax-error", example(name)) == []


@pytest.mark.filterwarnings("error")
def test_syntax_warnings_are_not_errors() -> None:
    assert run_rule("syntax-error", 'x = 1\nprint(x is 1, "\\d")\n') == []


def test_empty_file_is_valid() -> None:
    assert run_rule("syntax-error", "") == []


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the grader's Python reads 3.12 syntax")
@pytest.mark.parametrize(
    ("name", "line", "words"),
    [
        ("syntax_error_newer_fstring.py", 5, "puts its own quote, a backslash or a `#` inside"),
        ("syntax_error_newer_type.py", 3, "is a `type` statement"),
        ("syntax_error_newer_generic.py", 4, "declares type parameters in square brackets"),
    ],
)
def test_syntax_only_python_312_reads_is_named(name: str, line: int, words: str) -> None:
    """Code that runs on the student's Python 3.12 is still a syntax error here, but the
    message names the feature, the grader's Python and how to write it for that Python."""
    [violation] = run_rule("syntax-error", example(name))
    assert violation.line == line
    assert words in violation.message
    assert f"only Python 3.12 and later allow; the grader runs Python 3.{sys.version_info.minor}" \
        in violation.message


@pytest.mark.parametrize(
    "source",
    ['s = f"{x"\n', 's = f"{}"\n', "type = 3\nif type == 3 print(type)\n",
     'print(f"{{d["a"]}}")\n', 'def f(:\n    pass\n'],
)
def test_a_plain_error_is_not_blamed_on_the_python_version(source: str) -> None:
    """An error that Python 3.12 makes too keeps the parser's plain message."""
    [violation] = run_rule("syntax-error", source)
    assert "Python 3.12" not in violation.message
    assert "Python cannot read this file" in violation.message


def test_the_precheck_on_a_newer_python_names_what_the_graders_cannot_read() -> None:
    """On the student's Python 3.12 the file compiles; graded on 3.11 it would not: each line
    using a 3.12 feature is found (the pre-check reports the first, as the grader would)."""
    lines = example("syntax_error_newer_fstring.py").splitlines() + [
        "type Move = tuple[int, int]", "class Box[T]:", "x = f'{y}'"]
    assert only_newer_python(lines, (3, 12), (3, 11)) == [
        (5, "newer-fstring"), (6, "newer-type"), (7, "newer-generic")]
    text = ['# print(f"{d["a"]}")', '    >>> f"{d["a"]}"', "    ... type X = int"]
    assert only_newer_python(text, (3, 12), (3, 11)) == []  # comments and doctests are text
    assert only_newer_python(lines, (3, 13), (3, 12)) == []  # the grader reads them too
    assert only_newer_python(lines, (3, 11), (3, 11)) == []

