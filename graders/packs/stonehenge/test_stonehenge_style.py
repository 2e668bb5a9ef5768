"""Style: the graded subset of a2_pyta.txt (see graders/packs/stonehenge/style.py).

Static checks of the submitted text in the parent; nothing is run. A file left exactly as
the starter gave it is not assessed (no marks for the starter's own style), nor is a file
that was not handed in or does not parse.
"""

from __future__ import annotations

import ast

import pytest

from graders.packs.stonehenge import style

FILES = ["stonehenge.py", "strategy.py", "game_interface.py"]
WORDS = {
    "pycodestyle": "PEP 8 (pycodestyle, lines up to 80 characters)",
    "nesting": "at most 3 nested blocks per function (max-nested-blocks)",
    "io": "input()/print() only where a2_pyta.txt allows (allowed-io)",
    "imports": "only the allowed imports (allowed-import-modules)",
    "docstrings": "a docstring for the module, each class and each public function",
}
SHOWN = 8


def assessed_source(submission, pack, file):
    source = submission.files.get(file)
    assert source is not None, f"{file} was not handed in, so its style cannot be assessed"
    assert source.strip() != pack.template_text(file).strip(), (
        f"{file} is the starter file unchanged: there is no work of yours to assess")
    try:
        ast.parse(source)
    except (SyntaxError, ValueError) as error:
        raise AssertionError(f"{file} does not parse ({error}), so its style cannot be "
                             "assessed") from None
    return source


def check_style(submission, pack, file, kind):
    source = assessed_source(submission, pack, file)
    problems = style.check(kind, source, file)
    shown = "\n".join(f"  line {line}: {text}" for line, text in problems[:SHOWN])
    more = f"\n  ... and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    assert not problems, f"{file}: {WORDS[kind]}: {len(problems)} problem(s)\n{shown}{more}"


@pytest.mark.public
@pytest.mark.parametrize("file", FILES)
def test_style_pep8(submission, pack, file):
    check_style(submission, pack, file, "pycodestyle")


@pytest.mark.public
@pytest.mark.parametrize("file", FILES)
def test_style_nesting(submission, pack, file):
    check_style(submission, pack, file, "nesting")


@pytest.mark.public
@pytest.mark.parametrize("file", FILES)
def test_style_no_io(submission, pack, file):
    check_style(submission, pack, file, "io")


@pytest.mark.public
@pytest.mark.parametrize("file", FILES)
def test_style_imports(submission, pack, file):
    check_style(submission, pack, file, "imports")


@pytest.mark.public
@pytest.mark.parametrize("file", FILES)
def test_style_docstrings(submission, pack, file):
    check_style(submission, pack, file, "docstrings")
