"""Grader tests for TippyGameState and TippyMove (parent side, plain data only).

The student's game is built and played by ``driver.py`` through the starter API; every answer
is checked here against the exact rules in ``oracle`` (public tests) or against the reference
game (hidden differential test, smallest diverging move list shown by Hypothesis).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graders.packs.tippy import expect, generate, oracle
from graders.testing import grading_settings

SIZES = [3, 4, 5, 6]
RESULT_KEYS = ("board", "over", "next_player", "winner", "outcome")
# Generated once per grading session, shared by every submission.
TIPPY_GAMES = {(n, p): [cells for _, cells in generate.tippy_games(n, p)]
               for n in SIZES for p in ("p1", "p2")}
SHAPE_GAMES = {n: generate.non_tippy_games(n) for n in SIZES}


def first_wrong(results, games, n, keys=RESULT_KEYS):
    """Fail on the first game whose summary differs from the rules; say how many differ.

    A game the driver could not play to its end (``stopped``) is wrong whatever its summary
    says: no credit for a state that was never reached.
    """
    expected = [dict(expect.pick(expect.summary(n, cells), keys), stopped=None)
                for cells in games]
    wrong = [(cells, got, want) for cells, got, want in zip(games, results, expected, strict=True)
             if dict(expect.pick(got, keys), stopped=got.get("stopped")) != want]
    if wrong:
        cells, got, want = wrong[0]
        expect.equal(dict(expect.pick(got, keys), stopped=got.get("stopped")), want,
                     what=f"{len(wrong)} of {len(games)} games on {n} x {n} are wrong; first: "
                     f"after {expect.game_text(cells)}, board "
                     f"{expect.picture(oracle.replay(n, cells))}")


@pytest.mark.public
@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_state_starts_empty_with_the_size_asked(student, n):
    got = student.call("play", n, [])["final"]
    expect.equal(expect.pick(got), expect.summary(n, []),
                 what=f"TippyGameState('p1', interactive=True) answering {n} to the size prompt")


@pytest.mark.public
@pytest.mark.parametrize("player", ["p1", "p2"])
@pytest.mark.parametrize("n", SIZES)
def test_state_sees_every_tippy(student, n, player):
    games = TIPPY_GAMES[n, player]
    first_wrong(student.call("play_many", n, games), games, n)


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_no_false_wins(student, n):
    named = SHAPE_GAMES[n]
    results = student.call("play_many", n, [cells for _, cells in named])
    keys = ("over", "winner")
    pairs = zip(named, results, strict=True)
    expect.equal({name: dict(expect.pick(got, keys), stopped=got["stopped"])
                  for (name, _), got in pairs},
                 {name: dict(expect.pick(expect.summary(n, cells), keys), stopped=None)
                  for name, cells in named},
                 what=f"X marks a shape that is not a tippy (L, T, line, square) on {n} x {n}; "
                 "the game must go on")


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_tie_on_a_full_board(student, n):
    cells = generate.tie_game(n)
    got = student.call("play", n, cells)
    assert got["stopped"] is None, f"could not play {expect.game_text(cells)}: {got['stopped']}"
    expect.equal(expect.pick(got["final"]), expect.summary(n, cells),
                 what=f"a full {n} x {n} board with no tippy "
                 f"({expect.picture(oracle.replay(n, cells))})")


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_refuses_taken_squares(student, n):
    cells = generate.random_game(n, 5, stop_at_empty=n * n - 5)
    got = student.call("replay_taken", n, cells)
    accepted = [r for r in got["results"] if not r["returned_none"]]
    assert not got["stopped"], f"could not replay {expect.game_text(cells)}: {got['stopped']}"
    assert not accepted, (
        f"after {expect.game_text(cells)}, apply_move must return None for a move on a taken "
        f"square, but replaying the move on {tuple(accepted[0]['cell'])} gave a state: "
        f"{accepted[0]['result']}")


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_apply_move_returns_a_new_state(student, n):
    cells = generate.random_game(n, 2, stop_at_empty=n * n - 3)
    got = student.call("apply_effects", n, cells)
    assert got["checks"] and not got["stopped"], f"no move could be tried: {got['stopped']}"
    assert len(got["checks"]) == n * n - len(cells) or not got["checks"][-1]["state_unchanged"], \
        f"after {expect.game_text(cells)}, {len(got['checks'])} legal moves were tried"
    for check in got["checks"]:
        assert not check["returned_self"] and check["state_unchanged"], (
            f"after {expect.game_text(cells)}, apply_move({check['move']}) changed the state "
            f"it was called on ({check['moves_before']} free squares became "
            f"{check['moves_after']}); it must return a NEW state and leave the old one as it "
            "was")
        assert check["result_right"], (
            f"after {expect.game_text(cells)}, apply_move({check['move']}) did not return a "
            f"new state where square {tuple(check['cell'])} is taken and the other player "
            "moves")


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_random_games_follow_the_rules(student, n):
    for seed in range(2 if n < 5 else 1):
        cells = generate.random_game(n, 100 + seed)
        got = student.call("play", n, cells, True)
        assert got["stopped"] is None, f"could not play {expect.game_text(cells)}: " \
            f"{got['stopped']}"
        steps = [*got["steps"], got["final"]]
        for i, step in enumerate(steps):
            expect.equal(expect.pick(step), expect.summary(n, cells[:i]),
                         what=f"after {expect.game_text(cells[:i])}")


@pytest.mark.public
def test_state_rough_outcome_is_between_lose_and_win(student):
    games = [generate.random_game(n, seed, stop_at_empty=n * n // 2)
             for n in (3, 4) for seed in range(4)]
    values = student.call("rough_outcomes", 3, games[:4]) + student.call(
        "rough_outcomes", 4, games[4:])
    for cells, value in zip(games, values, strict=True):
        ok = isinstance(value, int | float) and not isinstance(value, bool) and -1 <= value <= 1
        assert ok, f"rough_outcome() after {expect.game_text(cells)} gave {value!r}, not a " \
            "number from -1.0 (LOSE) to 1.0 (WIN)"


def _games(n: int):
    cells = [(r, c) for r in range(n) for c in range(n)]
    return st.permutations(cells).map(lambda order: _until_over(n, order))


def _until_over(n, order):
    board, played = oracle.empty_board(n), []
    for cell in order:
        if oracle.status(board) is not None:
            break
        board = oracle.play(board, cell, oracle.MARK_OF[expect.to_move(played)])
        played.append(list(cell))
    return played


_REFERENCE_PLAYS: dict = {}


def reference_play(reference, n, cells):
    """The reference's answer, asked once per session: every student gets the same games."""
    key = (n, tuple(tuple(cell) for cell in cells))
    if key not in _REFERENCE_PLAYS:
        _REFERENCE_PLAYS[key] = reference.call("play", n, cells, True)
    return _REFERENCE_PLAYS[key]


@grading_settings(max_examples=25)
@given(data=st.data(), n=st.sampled_from([3, 4, 5]))
def test_state_agrees_with_reference(student, reference, data, n):
    cells = data.draw(_games(n), label="game")
    mine = student.call("play", n, cells, True)
    theirs = reference_play(reference, n, cells)
    mine_steps = [*mine["steps"], mine["final"]]
    for i, want in enumerate([*theirs["steps"], theirs["final"]]):
        got = mine_steps[i] if i < len(mine_steps) else {}
        expect.equal(expect.pick(got), expect.pick(want),
                     what=f"{n} x {n} after {expect.game_text(cells[:i])} (vs the reference)")


def opening_moves(student, n):
    """move_facts for n, after checking the moves stand for every square once (else fail)."""
    got = student.call("move_facts", n)
    expect.equal({"squares": got["cells"], "moves that mark no single new square":
                  got["odd_moves"]},
                 {"squares": [[r, c] for r in range(n) for c in range(n)],
                  "moves that mark no single new square": []},
                 what=f"possible_next_moves() of a new {n} x {n} game (squares told by "
                 f"{got['how']})")
    return got


@pytest.mark.public
@pytest.mark.parametrize("n", [3, 4, 5])
def test_move_one_move_per_empty_square(student, n):
    opening_moves(student, n)


@pytest.mark.public
def test_move_describes_its_square(student):
    texts = opening_moves(student, 3)["texts"]
    errors = [t for pair in texts for t in pair if not isinstance(t, str)]
    assert not errors, f"repr() or str() of a TippyMove failed: {errors[0]}"
    for k, label in ((0, "repr"), (1, "str")):
        shown = [pair[k] for pair in texts]
        assert len(set(shown)) == len(shown), (
            f"{label}() gives the same text for moves to different squares: {shown}")


@pytest.mark.public
def test_move_still_means_its_square_later(student):
    got = opening_moves(student, 4)
    assert not got["not_reusable"], (
        "a TippyMove taken from one state must mark the same square when applied to a later "
        "state where that square is still empty (get_move builds new moves, and GameView "
        f"applies them): {got['not_reusable'][:3]}")
