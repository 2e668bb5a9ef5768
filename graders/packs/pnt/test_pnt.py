"""PNT grader tests: parent side; the student's program is only ever run in the sandbox.

Every test is parametrized by case name (public: the three official cases and the handout's
sample; hidden: the cases of fixtures/pnt/inputs/, read when a test needs one). The program
runs once per case and student (the engine's `memo`) and each test judges one field of its
output, so a wrong count costs the counts criterion and not the move. A case whose output is
exactly what the program printed for the handout's sample, where the answers differ, fails
whole (constants earn nothing). Output is compared by parsed fields: trailing spaces and the
final newline never matter; a float with two decimals costs only the format criterion.
"""

from __future__ import annotations

from functools import cache

import pytest

from graders.packs.pnt import checks, oracle

CASES = [
    *(pytest.param(name, marks=pytest.mark.public)
      for name in [*checks.OFFICIAL_NAMES, checks.SAMPLE_NAME]),
    *checks.HIDDEN_NAMES,
]


@pytest.fixture(params=CASES)
def result(request, submission, pack, run_program, public_file, golden, memo) -> checks.CaseRun:
    """The student's run of each case (every test taking it runs on every case; one run
    shared by the case's seven tests), judged against the sample."""
    program = checks.program_name(submission)

    def run(name: str) -> checks.CaseRun:
        if name not in memo:
            position, expected = checks.load_case(name, pack, public_file, golden)
            memo[name] = checks.run_case(name, position, expected, pack, run_program, program)
        return memo[name]

    return checks.answered(run(request.param), run(checks.SAMPLE_NAME))


def test_move(result):
    checks.check_field(result, "move", _tie(result))


def _tie(result: checks.CaseRun) -> str:
    """A move that ties the best one on value: the handout's tie rule, said."""
    got, want = result.got.values["move"], result.expected.values["move"]
    # asked on every case, the right answer's too: the kit records it on the reference
    tied = _last_of_ties(result.position)
    if got is None or got == want or tied != got:
        return ""
    return (f" ({got} is the move a search makes that keeps the last of equally good moves; "
            "on a tie the handout's search keeps the first, the smaller token)")


@cache
def _last_of_ties(position: checks.Position) -> int:
    return int(oracle.search(position, {"ties_to_larger"})[0])


def test_value(result):
    checks.check_field(result, "value")


def test_visited(result):
    checks.check_field(result, "visited")


def test_evaluated(result):
    checks.check_field(result, "evaluated")


def test_max_depth(result):
    checks.check_field(result, "max_depth")


def test_branching(result):
    checks.check_field(result, "branching")


def test_format(result):
    checks.check_format(result)
