"""Style: python_ta with the pack's a2_pyta.txt, as the handout asks (see pyta.py).

One sandboxed python_ta run per student checks every assessed file once; each file earns two
shares, one per section of python_ta's report (code errors / style). A message the unchanged
starter file gets too is not counted. A file left exactly as the starter gave it is not
assessed (no marks for the starter's own style), nor is a file that was not handed in or does
not parse.
"""

from __future__ import annotations

import ast

import pytest

from graders.errors import GraderError
from graders.packs.stonehenge import pyta

FILES = ["stonehenge.py", "strategy.py", "game_interface.py"]
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


@pytest.fixture
def starter_run(run_tool, batch_memo):
    """python_ta on the starter files, once per grading session."""
    if "starter" not in batch_memo:
        starter = pyta.run(run_tool, FILES, workspace="starter")
        for report in starter.files.values():
            if report.refused or report.crashed:
                raise GraderError(f"python_ta could not check the starter {report.file}: "
                                  f"{report.refused or report.crashed}")
        batch_memo["starter"] = starter
    return batch_memo["starter"]


@pytest.fixture
def student_run(submission, pack, run_tool, memo):
    """python_ta on this student's assessed files, once for all their style tests."""
    if "python_ta" not in memo:
        assessed = []
        for file in FILES:
            try:
                assessed_source(submission, pack, file)
            except AssertionError:
                continue
            assessed.append(file)
        memo["python_ta"] = pyta.run(run_tool, assessed) if assessed else None
    return memo["python_ta"]


def check_section(submission, pack, file, section, student_run, starter_run):
    assessed_source(submission, pack, file)
    report = student_run.files[file]
    if report.crashed:
        raise GraderError(f"python_ta crashed on {file}: {report.crashed}")
    assert report.refused is None, f"{file}: {report.refused}"
    starter = starter_run.files[file].messages
    found = [m for m in pyta.new_messages(report.messages, starter) if m.section == section]
    found.sort(key=lambda message: message.line)
    shown = "\n".join(f"  {message.describe()}" for message in found[:SHOWN])
    more = f"\n  ... and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    assert not found, (f"{file}: python_ta reports {len(found)} problem(s) of "
                       f"{pyta.SECTIONS[section]}:\n{shown}{more}\n({student_run.made_by})")


@pytest.mark.public
@pytest.mark.parametrize("file", FILES)
def test_style_python_ta_errors(submission, pack, file, student_run, starter_run):
    check_section(submission, pack, file, "errors", student_run, starter_run)


@pytest.mark.public
@pytest.mark.parametrize("file", FILES)
def test_style_python_ta_style(submission, pack, file, student_run, starter_run):
    check_section(submission, pack, file, "style", student_run, starter_run)
