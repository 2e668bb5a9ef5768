"""Rule ``syntax-error``: a source that does not parse fails with the parser's message."""

from __future__ import annotations

import sys

import pytest
from rules_testkit import example, run_rule

from graders.checks import run_rules
from graders.pack import get_pack
from graders.rules import get_rule, syntax_error
from graders.rules.syntax_error import only_newer_python
from graders.submissions import prepare


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
        ("syntax_error_newer_fstring.py", 5, "a string in its own quote, or one holding a"),
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
    source = example("syntax_error_newer_fstring.py") + (
        "type Move = tuple[int, int]\nclass Box[T]:\n    pass\nx = f'{y}'\n")
    assert only_newer_python(source, (3, 12), (3, 11)) == [
        (5, "newer-fstring"), (6, "newer-type"), (7, "newer-generic")]
    assert only_newer_python(source, (3, 13), (3, 12)) == []  # the grader reads them too
    assert only_newer_python(source, (3, 11), (3, 11)) == []


@pytest.mark.parametrize("source", [
    '# print(f"{d["a"]}")\n',  # a comment
    'total = 1  # was: print(f"{row["name"]}")\n',  # a comment after code
    'def f():\n    """Say it.\n\n    >>> f"{d["a"]}"\n    type X = int\n    """\n',  # a docstring
    'opts = {"-f": {"force": True}, "-v": 2}\n',  # a string ending in f is no f-string prefix
    'print("%f", {"a": 1}, "end")\n',
    "n = 3\nline = f\"{'#' * n}\"\nkey = f\"{d['#']}\"\n",  # '#' in a string: Python 3.11 too
    'x = f"{y:{width}}" + f"{z!r:>10}" + f"""{a}""" + f"{{b}}"\n',
])
def test_what_python_311_reads_is_never_called_newer(source: str) -> None:
    assert only_newer_python(source, (3, 12), (3, 11)) == []


def test_a_long_line_is_not_scanned_for_ever() -> None:
    """A line made of thousands of unclosed f-string starts (quadratic to scan) is skipped."""
    source = "x = [" + 'f"{(",' * 16000 + "]\n"
    assert only_newer_python(source, (3, 12), (3, 11)) == []
    [violation] = run_rule("syntax-error", source)
    assert "Python cannot read this file" in violation.message


def test_an_error_beside_an_f_string_is_not_blamed_on_it() -> None:
    """A missing comma after a 3.11 f-string is the parser's plain error."""
    [violation] = run_rule("syntax-error", "n = 2\nprint(f\"{'#' * n}\" end='')\n")
    assert "Python 3.12" not in violation.message


def test_the_precheck_on_a_newer_python_checks_files_that_compile(monkeypatch, tmp_path) -> None:
    """The rule checks run the syntax rule on every file, not only those that do not parse,
    when this Python is newer than the grader's (a student's 3.12 for an instructor's 3.11):
    the file compiles here, and the rule names the line the grader cannot read."""
    pack = get_pack("altnim")
    source = tmp_path / "hand-in"
    source.mkdir()
    (source / "myAltNimFunctions.py").write_text(
        (pack.reference_dir / "myAltNimFunctions.py").read_text())
    submission = prepare(source, pack, tmp_path / "work")
    assert [r for r in run_rules(pack, submission) if r.rule == "syntax-error"] == []
    monkeypatch.setattr(syntax_error, "RUNNING", (3, 12))
    monkeypatch.setattr(syntax_error, "GRADING_PYTHON", (3, 11))
    monkeypatch.setattr(syntax_error, "newer_lines", lambda text: [(9, "newer-type")])
    [found] = [r for r in run_rules(pack, submission) if r.rule == "syntax-error"]
    assert found.line == 9 and "your Python 3.12 reads it, Python 3.11 does not" in found.message
