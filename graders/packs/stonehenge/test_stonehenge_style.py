"""Style: python_ta with the course's a2_pyta.txt, as the handout asks (graders/style).

One sandboxed python_ta run per grading session checks stonehenge.py, strategy.py and every
helper module of every student (``[settings] python_ta``; see graders/style/assessed.py). The
criterion is proportional (``per_kind``): each distinct kind of message costs the same, however
many lines carry it; kinds python_ta gained after the course are listed, never counted
(``free_kinds``). A message on a line of the starter's text, or one the unchanged starter file
gets too, is not the student's.

No vacuous credit: style is marked only on work that does something. Some work of the
student's must be there (one of the two files changed from the starter, or a module of their
own, where the game lives when it is wired in under another name), and the game or a minimax
strategy must work on a small case; otherwise the test fails without kinds and the criterion
is forfeited.
"""

from __future__ import annotations

import contextlib
from functools import partial

import pytest

from graders.packs.stonehenge import checks_strategies, oracle
from graders.style import assessed
from graders.testing import expect_no_kinds

# A strategy that always takes the first or the last move fails one of these totals.
PROBE_TOTALS = [4, 13]


@pytest.fixture
def style_runs(grading_state, pack, submission, run_tool, run_tool_over, memo, batch_memo):
    """(this student's python_ta run, the starter's), each made once (graders/style)."""
    session = assessed.session_runs(pack, grading_state.submissions, run_tool_over, batch_memo)
    student = assessed.student_run(pack, submission, run_tool, memo, session, batch_memo)
    return student, assessed.starter_run(pack, run_tool, batch_memo)


@pytest.fixture
def side_1_moves():
    """The moves of a new side-1 game, asked of the oracle before python_ta runs and whatever
    the student's code does (the student kit records exactly this question)."""
    return oracle.moves(oracle.start(1))


def expect_working(student, side_1_moves):
    """The game plays a side-1 game, or a minimax strategy picks the best subtract-square
    moves; else there is nothing of the student's whose style earns marks."""

    def game_works():
        snaps = student.call("trace", 1, True, ["A"], ["moves", "over"])
        assert snaps[0].get("moves") == side_1_moves and snaps[-1].get("over")

    strategy_works = partial(checks_strategies.expect_subtract_square, student, totals=PROBE_TOTALS)
    for works in (game_works, partial(strategy_works, "mr"), partial(strategy_works, "mi")):
        with contextlib.suppress(AssertionError):
            return works()
    raise AssertionError("neither your game (a side-1 game: moves A, B, C, and over after A) "
                         "nor your minimax strategies (subtract square from 4 and 13) work, so "
                         "there is no working code of yours whose style earns marks")


@pytest.mark.public
def test_style_python_ta(submission, pack, student, side_1_moves, style_runs):
    assessed.expect_work_to_assess(submission, pack)
    expect_working(student, side_1_moves)
    kinds = assessed.kinds_found(submission, pack, *style_runs)
    expect_no_kinds(kinds, what=assessed.described(style_runs[0]))
