"""game_of_nim grader tests that play the game (parent side, plain data only).

Alpha-beta's moves come from the pack's memoised search run on the submission's game in the
sandbox (``driver.fast_alpha_beta``): it returns exactly the move of the textbook's
``alpha_beta_search`` (proved in tests/packs/game_of_nim/), in a fraction of the time.
Differential tests compare with the reference on boards Hypothesis generates and shrinks, so
a failure shows the smallest board found.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from graders.errors import StudentFault
from graders.packs.game_of_nim.generate import board_after, path_from_choices
from graders.packs.game_of_nim.golden import TRANSCRIPT
from graders.packs.game_of_nim.grading import call, game_text
from graders.testing import Mismatch, expect_equal, expect_text, grading_settings

PROBE = {"misere": [0, 2], "normal": [0, 1]}
OTHER_RULE = {"misere": "normal", "normal": "misere"}


@pytest.mark.public
def test_rule_probe(student, pack):
    rule = pack.settings["rule"]
    got = call(student, pack, "choose", [2, 1], [])
    if got == PROBE[rule]:
        return
    message = (
        f"alpha-beta on GameOfNim([2, 1]), first player to move, played {got}; under the "
        f"handout's {rule} rule it must play {PROBE[rule]}"
    )
    if got == PROBE[OTHER_RULE[rule]]:
        message += (
            f" ({got} is the winning move under the {OTHER_RULE[rule]} rule: check who "
            "utility() says has won, and whose turn result() gives)"
        )
    raise Mismatch(
        message,
        {
            "kind": "fields",
            "what": "alpha-beta's move from [2, 1]",
            "rows": [{"field": "move", "expected": PROBE[rule], "got": got, "ok": False}],
        },
    )


# -- differential tests (hidden: they use the reference) -------------------------------------

boards = st.lists(st.integers(0, 4), min_size=1, max_size=4)
small_boards = st.lists(st.integers(0, 3), min_size=1, max_size=4)


def play_view(worker, pack, board: list[int], path: list[list[int]]) -> list[dict[str, Any]]:
    """Each state of the game as the grader compares it: board, moves in any order, and whose
    turn it is (first or second player, whatever the labels)."""
    out = call(worker, pack, "play", board, path)
    states = [out["initial"], *out["steps"]]
    first = states[0]["to_move"]
    view = [
        {
            "board": s["board"],
            "moves (any order)": sorted(s["moves"]),
            "to move": "first player" if s["to_move"] == first else "second player",
        }
        for s in states
    ]
    view[-1]["game over"] = call(worker, pack, "terminal", board, path)
    return view


@grading_settings(max_examples=25)
@given(board=boards, choices=st.lists(st.integers(0, 99), max_size=10))
def test_agrees_on_play(student, reference, pack, board, choices):
    path = path_from_choices(board, choices)
    expect_equal(
        play_view(student, pack, board, path),
        play_view(reference, pack, board, path),
        what=f"the states of {game_text(board, path)} (index 0 = the initial state)",
    )


@grading_settings(max_examples=20)
@given(board=small_boards, opening=st.lists(st.integers(0, 99), max_size=2))
def test_alpha_beta_choice_is_optimal(student, reference, pack, board, opening):
    # Alpha-beta moves first, as in the handout's main: from the initial state, or after one
    # move of each player. Only there do both readings of utility() agree.
    path = path_from_choices(board, opening)
    path = path[: len(path) // 2 * 2]
    assume(any(board_after(board, path)))
    got = call(student, pack, "choose", board, path)
    values = call(reference, pack, "move_values", board, path)
    best = max(value for _, value in values)
    optimal = [move for move, value in values if value == best]
    if got in optimal:
        return
    outcome = "wins" if best > 0 else "loses whatever it plays"
    raise Mismatch(
        f"alpha-beta on your {game_text(board, path)} (first player to move, who {outcome}) "
        f"chose {got}; a best move is one of {optimal}",
        {
            "kind": "fields",
            "what": "alpha-beta's move",
            "rows": [{"field": "move", "expected": f"one of {optimal}", "got": got, "ok": False}],
        },
    )


# -- the handout's sample game ---------------------------------------------------------------


@pytest.mark.public
def test_handout_transcript(student, pack, public_file):
    settings = pack.settings
    out = student.call(
        "replay",
        settings["handout_board"],
        settings["handout_typed"],
        settings["rule"],
        timeout=settings["replay_seconds"],
    )
    what = f"the game from {settings['handout_board']} vs {TRANSCRIPT}"
    try:
        expect_text(
            out["transcript"], public_file(TRANSCRIPT), mode=settings["transcript_mode"], what=what
        )
    except Mismatch as exc:
        if not out["error"]:
            raise
        raise Mismatch(
            f"{exc.message}\nThe game stopped early: {out['error']}", exc.details
        ) from None
    expect_shows_board(out.get("displayed"), settings["handout_board"])


def expect_shows_board(displayed: str | None, board: list[int]) -> None:
    """The class's own display() prints something for a state. The replay shows every board
    itself (the display format is not graded), but the handout's main shows them through
    display(): "current state: board: [6, 5, 3, 1]". The default Game.display passes."""
    if displayed and displayed.strip():
        return
    raise Mismatch(
        f"display(state) printed nothing for GameOfNim({board}).initial: the handout's main "
        'shows every board through it ("current state: board: [6, 5, 3, 1]"); print the '
        "board, or keep the default Game.display",
        {
            "kind": "fields",
            "what": "what display(initial state) printed",
            "rows": [
                {
                    "field": "display(state)",
                    "expected": "the board, in any format",
                    "got": "an error" if displayed is None else "nothing",
                    "ok": False,
                }
            ],
        },
    )


# -- notes: what the handout does not grade (never costs marks) -------------------------------


@pytest.mark.public
def test_notes(student, pack):
    """Not in any criterion: passes, or is skipped with notes for the student."""
    try:
        out = call(student, pack, "compat", [2, 1])
    except StudentFault as exc:
        pytest.skip(f"notes unavailable: {exc}")
    notes = []
    params = out["parameters"] or []
    if params and params[0] != "board":
        notes.append(
            f"the constructor's parameter is named {params[0]!r}, not 'board': the "
            "grader passed the board positionally"
        )
    players = out["labels"] or []
    distinct = None not in players and len(set(map(str, players))) == 2
    if distinct and set(players) != {"MAX", "MIN"}:
        notes.append(
            f"the players are called {out['labels']}, not ['MAX', 'MIN']: fine, the "
            "handout allows any two distinct names"
        )
    if out["printed"]:
        first = out["printed"].splitlines()[0][:80]
        notes.append(
            f"your methods print while a game is played (first line: {first!r}): the "
            "grader ignores it, but remove debugging output before you hand in"
        )
    if notes:
        pytest.skip("Not graded: " + "; ".join(notes) + ".")
