"""The PNT reference solution reproduces the official outputs and hand-checked positions.

Each hand-checked case below carries the reasoning that gives its six numbers, worked out on
paper from the spec's rules (docs: /work/shared/specs/pnt.md), not copied from a program run.
Notation: a node is written by the token just taken; "Max"/"Min" is the player to move there;
counts are (visited, evaluated, max depth); ABF = (visited - 1) / (visited - evaluated).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from graders.pack import get_pack
from tests.in_process import reference_module

PACK = get_pack("pnt")
REFERENCE, OFFICIAL = PACK.reference_dir / "pnt.py", PACK.templates_dir
pnt = reference_module(PACK, "pnt")


def run_reference(args: str) -> str:
    """Run the reference program as students' programs are run, return its stdout."""
    result = subprocess.run(
        [sys.executable, str(REFERENCE), *args.split()],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return result.stdout


def lines(text: str) -> list[str]:
    """The output's lines without trailing spaces (the official files have one after Move)."""
    return [line.rstrip() for line in text.rstrip("\n").splitlines()]


@pytest.mark.parametrize(
    ("args", "expected_file"),
    [("3 0 0", "output1.txt"), ("7 1 1 2", "output2.txt"), ("10 3 4 2 6 4", "output3.txt")],
)
def test_official_outputs(args: str, expected_file: str) -> None:
    expected = (OFFICIAL / expected_file).read_text()
    assert lines(run_reference(args)) == lines(expected)


def test_handout_sample() -> None:
    # Handout 2.3: Min to move after 1 4 2; only 6 is legal, then only 3, then Min is stuck.
    assert lines(run_reference("7 3 1 4 2 3")) == [
        "Move: 6",
        "Value: 1.0",
        "Number of Nodes Visited: 3",
        "Number of Nodes Evaluated: 1",
        "Max Depth Reached: 2",
        "Avg Effective Branching Factor: 1.0",
    ]


def test_output_is_six_lines_with_one_decimal_floats() -> None:
    out = run_reference("7 1 3 1")
    assert out.endswith("\n") and len(out.splitlines()) == 6
    assert out.splitlines()[1] == "Value: 0.0"  # never "-0.0" nor "0"


HAND_CHECKED = [
    # n=4, new game, full depth. First move: odd < 2 -> only 1. Min after 1: 2, 3, 4.
    #   2 -> Max has 4 -> Min after 4 has nothing: +1. Min: beta = 1.
    #   3 -> Max has nothing: -1. Min: beta = -1.
    #   4 -> Max has 2 -> Min after 2 has nothing: +1 (Max returns at once, 1 >= beta).
    # Root value -1. Visited: root,1,2,4,3,4,2 = 7; evaluated 4,3,2 = 3; depth 3; ABF 6/4.
    ("4 0 0", (1, -1.0, 7, 3, 3, 1.5)),
    # n=5: first move only 1 (3 is not < 2.5); same tree as n=4 plus the dead end 5 (-1).
    # Visited 8, evaluated 4, depth 3, ABF 7/4 = 1.75 -> "1.8".
    ("5 0 0", (1, -1.0, 8, 4, 3, 1.75)),
    # n=6, depth 1: only 1 is legal (3 is not < 3). Node 1 (Min to move, last 1) is at the
    # limit: Min has 2..6 = 5 moves, odd -> +0.5 for Max, negated on Min's turn -> -0.5.
    ("6 0 1", (1, -0.5, 2, 1, 1, 1.0)),
    # n=8, depth 1: moves 1 and 3. Node 1 (Min, last 1): 7 moves, odd -> -0.5.
    # Node 3: token 1 not taken -> 0.0. Max prefers 3. Visited 3, evaluated 2, ABF 2/1.
    ("8 0 1", (3, 0.0, 3, 2, 1, 2.0)),
    # n=7 after 3, depth 1, Min to move: moves 1, 6. Node 1 (Max, last 1): 2,4,5,6,7 = 5,
    # odd -> +0.5. Node 6: token 1 untaken -> 0.0. Min prefers 6 with 0.0.
    ("7 1 3 1", (6, 0.0, 3, 2, 1, 2.0)),
    # n=7 after 3, depth 2, Min to move. Depth-2 nodes have Min to move (signs flipped).
    #   1 (Max, last 1): 2 -> Min has 4,6: two multiples of prime 2, even -> -0.7 -> +0.7;
    #     4 -> Min has 2: largest prime 2, one multiple -> +0.6 -> -0.6;
    #     5 -> Min stuck -> +1.0; 6 -> Min has 2: prime 3, no multiple -> -0.6 -> +0.6;
    #     7 -> Min stuck -> +1.0. Node 1 = 1.0 (no cut: beta = +inf). Root beta = 1.
    #   6 (Max, last 6): 1 -> Min has 2,4,5,7 = 4, even -> -0.5 -> +0.5 (< beta, alpha=0.5);
    #     2 -> token 1 untaken -> 0.0. Node 6 = 0.5 < 1.0, so Min plays 6.
    # Visited 1+6+3 = 10, evaluated 5+2 = 7, depth 2, ABF 9/3.
    ("7 1 3 2", (6, 0.5, 10, 7, 2, 3.0)),
    # n=6 after 1, depth 1, Min to move: 2 (Max has 4,6: 2 multiples of 2 -> -0.7),
    # 3 (6: one multiple of 3 -> +0.7), 4 (2: prime 2, one -> +0.6), 5 (stuck -> -1.0),
    # 6 (2,3: largest prime 3, one multiple -> +0.6). Min plays 5. Visited 6, evaluated 5.
    ("6 1 1 1", (5, -1.0, 6, 5, 1, 5.0)),
    # n=7 after 1, depth 1: as above plus 7 (stuck, -1.0): the tie 5/7 goes to 5.
    ("7 1 1 1", (5, -1.0, 7, 6, 1, 6.0)),
    # n=10 after 1 2, depth 1, Max to move: 4, 6, 8, 10, Min to move below.
    #   4: Min has 8, prime 2: one -> +0.6 -> -0.6.   6: Min has 3, prime 3 counts itself: one
    #   -> -0.6.   8: Min has 4 -> -0.6.   10: Min has 5, prime 5: one -> -0.6.
    # All tie at -0.6: the smallest token 4 wins. Visited 5, evaluated 4, ABF 4/1.
    ("10 2 1 2 1", (4, -0.6, 5, 4, 1, 4.0)),
    # n=12 after 1 2, depth 1: 4 (Min has 8,12: two multiples of 2 -> -0.6 -> +0.6),
    # 6 (3,12: two multiples of 3 -> +0.6), 8 (4: one -> -0.6), 10 (5: one -> -0.6),
    # 12 (3,4,6: largest prime 3, multiples 3 and 6 -> +0.6). Max plays 4 (first 0.6).
    ("12 2 1 2 1", (4, 0.6, 6, 5, 1, 5.0)),
    # n=7 after 3 6, full depth, Max to move (the handout's input example): moves 1, 2.
    #   1 (Min, alpha=-inf, beta=+inf): 2 -> Max 4 -> Min stuck +1 (beta=1);
    #     4 -> Max 2 -> Min stuck +1, Max cuts (1 >= beta 1); 5 -> Max stuck -1 (beta=-1);
    #     7 -> Max stuck -1. Node 1 = -1, root alpha = -1.
    #   2 (Min, alpha=-1): 1 -> Max has 4,5,7, each leaves Min stuck: +1 (beta=1);
    #     4 -> Max has 1 -> Min (alpha=-1, beta=1) has 5,7: 5 leaves Max stuck -1 <= alpha,
    #     cut before 7; Max gets -1, then Min -1 <= alpha: cut. Node 2 = -1, not better.
    # Visited: root; 1,2,4,4,2,5,7; 2,1,4,5,7,4,1,5 = 16. Evaluated: 4,2,5,7,4,5,7,5 = 8.
    # Deepest: 2-4-1-5 at depth 4. ABF 15/8 = 1.875 -> "1.9".
    ("7 2 3 6 0", (1, -1.0, 16, 8, 4, 1.875)),
    # n=18 after 1 3 9, depth 1, Min to move: only 18. Node 18 (Max, last 18): Max has 2, 6;
    # 18 = 2 * 3 * 3, largest prime 3 (not 9, not 1: its last factor is a square), one
    # multiple -> +0.6. Visited 2, evaluated 1, ABF 1/1.
    ("18 3 1 3 9 1", (18, 0.6, 2, 1, 1, 1.0)),
]


@pytest.mark.parametrize(("args", "expected"), HAND_CHECKED, ids=[a for a, _ in HAND_CHECKED])
def test_hand_checked_positions(args: str, expected: tuple) -> None:
    n, taken, depth = pnt.parse_arguments(args.split())
    assert pnt.alpha_beta_search(n, taken, depth) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("args", "abf_line"),
    [
        ("5 0 0", "Avg Effective Branching Factor: 1.8"),
        ("7 2 3 6 0", "Avg Effective Branching Factor: 1.9"),
    ],
)
def test_branching_factor_printed_with_one_decimal(args: str, abf_line: str) -> None:
    assert lines(run_reference(args))[-1] == abf_line


def test_evaluation_branches() -> None:
    # Terminal: the player to move has lost.
    assert pnt.evaluate(5, {1, 5}, 5, max_to_move=True) == -1.0
    assert pnt.evaluate(5, {1, 5}, 5, max_to_move=False) == 1.0
    # Token 1 untaken: neutral on both sides.
    assert pnt.evaluate(7, {3}, 3, max_to_move=True) == 0.0
    # Last move 1: successors 2..7 minus 4 = 5 -> odd.
    assert pnt.evaluate(7, {1, 4}, 1, max_to_move=True) == 0.5
    # Prime 3 with 6 and 9 untaken (12 > 10): even -> -0.7; Min's turn -> +0.7.
    assert pnt.evaluate(10, {1, 3}, 3, max_to_move=False) == 0.7
    # Composite 9: largest prime 3; successors 3 (untaken factor), no multiple of 9 <= 10.
    assert pnt.evaluate(10, {1, 9}, 9, max_to_move=True) == 0.6
    # Composite 10: largest prime 5; successors 2, 5: only 5 is a multiple of 5 -> odd.
    assert pnt.evaluate(10, {1, 10}, 10, max_to_move=True) == 0.6


def test_first_move_rule() -> None:
    assert pnt.legal_moves(7, set(), None) == [1, 3]
    assert pnt.legal_moves(6, set(), None) == [1]
    assert pnt.legal_moves(3, set(), None) == [1]
    assert pnt.legal_moves(12, set(), None) == [1, 3, 5]


def test_largest_prime_factor() -> None:
    assert [pnt.largest_prime_factor(k) for k in (4, 6, 9, 12, 15, 49, 97)] == [
        2,
        3,
        3,
        3,
        5,
        7,
        97,
    ]
