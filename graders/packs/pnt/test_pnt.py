"""PNT grader tests: parent side; the student's program is only ever run in the sandbox.

Every test is parametrized by case. The program runs once per case (cached in
:mod:`graders.packs.pnt.grading`) and each test judges one field of its output, so a wrong
count costs the counts criterion and not the move. A case whose output is exactly what the
program printed for the handout's sample, where the answers differ, fails whole (constants
earn nothing). Output is compared by parsed fields: trailing spaces and the final newline
never matter; a float with two decimals costs only the format criterion.
"""

from __future__ import annotations

import pytest

from graders.packs.pnt.grading import (
    SAMPLE,
    SAMPLE_OUTPUT,
    CaseRef,
    all_cases,
    answered,
    check_fields,
    check_format,
    load_case,
    program_name,
    run_case,
)

CASES = [
    pytest.param(ref, id=ref.name, marks=[pytest.mark.public] if ref.public else [])
    for ref in all_cases()
]


@pytest.fixture(scope="session")
def runs() -> dict:
    """The runs of the submission being graded, shared by the tests of one session."""
    return {}


@pytest.fixture
def result(case, submission, pack, run_program, public_file, golden, runs):
    """The student's run of `case`, and the expected output (golden files for hidden cases)."""
    loaded, expected = load_case(case, pack, public_file, golden)
    program = program_name(submission)
    result = run_case(runs, submission.id, loaded, expected, pack, run_program, program)
    sample_text = public_file(SAMPLE_OUTPUT)
    sample = run_case(runs, submission.id, SAMPLE, sample_text, pack, run_program, program)
    return answered(result, sample)


@pytest.mark.parametrize("case", CASES)
def test_move(result, case: CaseRef):
    check_fields(result, ["move"])


@pytest.mark.parametrize("case", CASES)
def test_value(result, case: CaseRef):
    check_fields(result, ["value"])


@pytest.mark.parametrize("case", CASES)
def test_visited(result, case: CaseRef):
    check_fields(result, ["visited"])


@pytest.mark.parametrize("case", CASES)
def test_evaluated(result, case: CaseRef):
    check_fields(result, ["evaluated"])


@pytest.mark.parametrize("case", CASES)
def test_max_depth(result, case: CaseRef):
    check_fields(result, ["max_depth"])


@pytest.mark.parametrize("case", CASES)
def test_branching(result, case: CaseRef):
    check_fields(result, ["branching"])


@pytest.mark.parametrize("case", CASES)
def test_format(result, case: CaseRef):
    check_format(result)
