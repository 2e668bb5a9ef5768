"""Grader tests for the two minimax strategies (parent side, plain data only).

The student's strategies play on the REFERENCE game (a mixed workspace: their files and helper
modules, with the instructor's stonehenge.py over their own; the driver plays the instructor's
StonehengeGame whatever their game_interface imports), so a bug in their game costs marks
once, in the game criteria; where a strategy does not play right there, it plays on their own
game (a strategy may read their own state's fields), and is right if it plays right there.
Each strategy gets its own worker, so one that hangs does not
use up the other's time. Any move with the optimal score is accepted: the oracle knows every
move's score. Positions keep the plain minimax tree small (see generate.search_positions).
"""

from __future__ import annotations

import pytest

from graders.fixtures import generated
from graders.packs.stonehenge import checks, generate
from graders.packs.stonehenge.checks_strategies import (
    STRATEGIES,
    expect_best_move,
    expect_subtract_square,
    expect_subtract_square_moves,
)
from graders.testing import right_on_either

PUBLIC_TOTALS = [4, 18]
# 2 leaves exactly one legal move (subtract 1): a strategy must still return it.
HIDDEN_TOTALS = [13, 14, 2]


def graded_positions():
    """The spec's two positions, then ten generated ones (sides cycle through 2 to 5)."""
    return [*generate.SPEC_POSITIONS, *generate.search_positions(seed=2018, count=10)]


# The position the state-kept and no-recursion tests play: the first drawn one.
KEPT = 2


def on_reference_game(make_worker, key):
    # The student list only names the worker: each strategy its own (see the docstring).
    student = ["strategy.py", "game_interface.py"] if key == "mi" else ["strategy.py"]
    return make_worker(student=student, reference=["stonehenge.py"])


def games(make_worker, key):
    """``(worker, mixed)`` for the strategy on the instructor's game, then on the student's own
    (each made when needed)."""
    return [lambda: (on_reference_game(make_worker, key), True),
            lambda: (make_worker(student=["strategy.py"], label=f"own game {key}"), False)]


def right_somewhere(make_worker, key, judge, **options):
    """``judge(answer, worker)`` of the strategy's answer at the position the state-kept and
    no-recursion tests play (``options``: ``at``, another one), on the instructor's game, or
    on the student's own where it could not play on the instructor's."""
    at = options.pop("at", None) or generated(graded_positions)[KEPT]

    def ask(game):
        worker, mixed = game
        return play(worker, key, at, mixed, **options), worker

    right_on_either(games(make_worker, key), ask, lambda answer: judge(*answer))


def play(worker, key, at, mixed=True, **options):
    """The strategy's answer at position ``at`` of the instructor's game (``mixed``), else of
    the student's own."""
    return worker.call("strategy", key, at["side"], at["p1_starts"], at["moves"], mixed=mixed,
                       **options)


@pytest.mark.public
def test_recursive_subtract_square(student):
    expect_subtract_square(student, "mr", PUBLIC_TOTALS)


@pytest.mark.public
def test_iterative_subtract_square(student):
    expect_subtract_square(student, "mi", PUBLIC_TOTALS)


def subtract_square_more(make_worker, key):
    right_on_either(games(make_worker, key),
                    lambda game: game[0].call("subtract_square", key, HIDDEN_TOTALS,
                                              mixed=game[1]),
                    lambda moves: expect_subtract_square_moves(moves, key, HIDDEN_TOTALS))


def test_recursive_subtract_square_more(make_worker):
    subtract_square_more(make_worker, "mr")


def test_iterative_subtract_square_more(make_worker):
    subtract_square_more(make_worker, "mi")


@pytest.mark.cases(graded_positions, ids=checks.side_id)
def test_recursive_optimal_move(make_worker, case):
    right_somewhere(make_worker, "mr", lambda got, _: expect_best_move(got, case), at=case)


@pytest.mark.cases(graded_positions, ids=checks.side_id)
def test_iterative_optimal_move(make_worker, case):
    right_somewhere(make_worker, "mi", lambda got, _: expect_best_move(got, case), at=case)


def state_kept(key):
    def judge(got, _):
        assert got["state_kept"], (
            f"the {STRATEGIES[key]} strategy changed game.current_state; it must only "
            "look ahead")
        # Leaving the state alone earns this share only where the strategy also did its job.
        expect_best_move(got, generated(graded_positions)[KEPT])
    return judge


def test_recursive_keeps_the_current_state(make_worker):
    right_somewhere(make_worker, "mr", state_kept("mr"))


def test_iterative_keeps_the_current_state(make_worker):
    right_somewhere(make_worker, "mi", state_kept("mi"))


def test_iterative_never_recurses(make_worker):
    right_somewhere(make_worker, "mi", never_recursed, watch_recursion=True)


def never_recursed(got, worker):
    at = generated(graded_positions)[KEPT]
    watches = worker.watches
    assert len(watches) == 1 and watches[0].get("intact"), (
        "the grader's recursion check did not run around the iterative strategy as it should: "
        "your code switched it off or changed the grader's driver")
    recursive = watches[0].get("recursion") or got["recursion"]
    assert recursive is None, (
        f"while the iterative strategy ran, {recursive}() in its module was called "
        "while it was already running: that is recursion. Use a loop over an explicit stack")
    # No recursion earns this share only where the strategy also found the move.
    expect_best_move(got, at)
