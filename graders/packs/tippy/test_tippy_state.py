"""Grader tests for TippyGameState and TippyMove, played by ``driver.py`` through the starter
API and checked against ``oracle`` (public) or the reference game (hidden, Hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graders.packs.tippy import checks, generate
from graders.testing import grading_settings

SIZES = [3, 4, 5, 6]


@pytest.mark.public
@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_state_starts_empty_with_the_size_asked(student, n):
    got = student.call("play", n, [])["final"]
    checks.equal(checks.pick(got), checks.summary(n, []),
                 what=f"TippyGameState('p1', interactive=True) answering {n} to the size prompt")
    for key, shown in (("repr", "repr"), ("text", "str")):  # abstract in GameState: any text
        assert isinstance(got[key], str), f"{shown}() of a new state gave {got[key]!r}"
    assert got["own_instructions"] is True, "a TippyGameState's instructions (shown before " \
        f"the game starts) must say how to play tippy: {got['own_instructions']}"


@pytest.mark.public
@pytest.mark.parametrize("player", ["p1", "p2"])
@pytest.mark.parametrize("n", SIZES)
def test_state_sees_every_tippy(student, n, player):
    games = [cells for _, cells in generate.tippy_games(n, player)]
    checks.expect_games(student.call("play_many", n, games), games, n)


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_no_false_wins(student, n):
    names, games = zip(*generate.non_tippy_games(n), strict=True)
    checks.expect_games(student.call("play_many", n, list(games)), list(games), n,
                        keys=("over", "winner"), names=names)


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_tie_on_a_full_board(student, n):
    cells = generate.tie_game(n)
    checks.expect_steps(student.call("play", n, cells), [checks.summary(n, cells)], n, cells,
                        " (a full board with no tippy)")


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_refuses_taken_squares(student, n):
    """apply_move returns None for a move on a taken square (in a game under way, and in a
    won one: what may be played once the game is over is the end-of-game test's)."""
    won = generate.tippy_games(n, "p2")[0][1]
    for cells in (generate.random_game(n, 5, stop_at_empty=n * n - 5), won):
        got = student.call("replay_taken", n, cells)
        accepted = [r for r in got["results"] if not r["returned_none"]]
        played = checks.game_text(cells)
        assert not got["stopped"], f"could not replay {played}: {got['stopped']}"
        assert not accepted, (
            f"after {played}{' (O has won)' if cells is won else ''}, apply_move must return "
            f"None for a move on a taken square, but the move on "
            f"{tuple(accepted[0]['cell'])} gave a state: {accepted[0]['result']}")


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_offers_no_move_once_the_game_is_over(student, n):
    """The handout: "If the game is over there are no moves available". After a game won by
    X, and one won by O, with squares left empty, possible_next_moves() is empty and
    apply_move refuses a move on an empty square (the game must first be played to its end,
    so a state that offers nothing at all earns nothing here)."""
    for winner in ("p1", "p2"):
        cells = generate.tippy_games(n, winner)[0][1]
        got = student.call("replay_taken", n, cells, True)
        assert not got["stopped"], f"could not play {checks.game_text(cells)}: {got['stopped']}"
        checks.expect_no_move_after(n, cells, got["final"], got["results"])


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_apply_move_returns_a_new_state(student, n):
    cells = generate.random_game(n, 2, stop_at_empty=n * n - 3)
    got, after = student.call("apply_effects", n, cells), checks.game_text(cells)
    assert got["checks"] and not got["stopped"], f"no move could be tried: {got['stopped']}"
    assert len(got["checks"]) == n * n - len(cells) or not got["checks"][-1]["state_unchanged"], \
        f"after {after}, {len(got['checks'])} legal moves were tried"
    for check in got["checks"]:
        assert not check["returned_self"] and check["state_unchanged"], (
            f"after {after}, apply_move({check['move']}) changed the state it was called on "
            f"({check['moves_before']} free squares became {check['moves_after']}); it must "
            "return a NEW state and leave the old one as it was")
        assert check["result_right"], (
            f"after {after}, apply_move({check['move']}) did not return a new state where "
            f"square {tuple(check['cell'])} is taken and the other player moves")


@pytest.mark.public
@pytest.mark.parametrize("n", SIZES)
def test_state_random_games_follow_the_rules(student, n):
    for seed in range(2 if n < 5 else 1):
        cells = generate.random_game(n, 100 + seed)
        checks.expect_steps(student.call("play", n, cells, True),
                            [checks.summary(n, cells[:i]) for i in range(len(cells) + 1)], n, cells)


@pytest.mark.public
def test_state_rough_outcome_is_between_lose_and_win(student):
    for n in (3, 4):
        games = [generate.random_game(n, seed, stop_at_empty=empty) for seed in range(4)
                 for empty in (n * n // 2, 2)]
        for cells, value in zip(games, student.call("rough_outcomes", n, games), strict=True):
            ok = isinstance(value, int | float) and not isinstance(value, bool) and -1 <= value <= 1
            assert ok, f"rough_outcome() after {checks.game_text(cells)} gave {value!r}, not " \
                "a number from -1.0 (LOSE) to 1.0 (WIN)"


@grading_settings(max_examples=25)
@given(data=st.data(), n=st.sampled_from([3, 4, 5]))
def test_state_agrees_with_reference(student, reference_call, data, n):
    order = data.draw(st.permutations([(r, c) for r in range(n) for c in range(n)]), label="order")
    cells = generate.until_over(n, order)
    theirs = reference_call("play", n, cells, True)  # asked once per batch
    checks.expect_steps(student.call("play", n, cells, True),
                        [*theirs["steps"], theirs["final"]], n, cells, " (vs the reference)")


@pytest.mark.public
@pytest.mark.parametrize("n", [3, 4, 5])
def test_move_one_move_per_empty_square(student, n):
    checks.opening_moves(student, n)


@pytest.mark.public
def test_move_describes_its_square(student):
    texts = checks.opening_moves(student, 3)["texts"]
    errors = [t for pair in texts for t in pair if not isinstance(t, str)]
    assert not errors, f"repr() or str() of a TippyMove failed: {errors[0]}"
    for k, label in ((0, "repr"), (1, "str")):
        shown = [pair[k] for pair in texts]
        assert len(set(shown)) == len(shown), (
            f"{label}() gives the same text for moves to different squares: {shown}")


@pytest.mark.public
def test_move_still_means_its_square_later(student):
    got = checks.opening_moves(student, 4)
    wrong = [f"the move for {tuple(bad['cell'])} "
             + ("was refused" if bad["took"] is None else
                f"took {', '.join(str(tuple(c)) for c in bad['took']) or 'no square'}")
             for bad in got["not_reusable"][:3]]
    assert not got["not_reusable"], (
        "a TippyMove taken from a new 4 x 4 game must mark the same square when applied two "
        "moves later, the same player to move and that square still empty (a move stands for "
        f"its square, not for the state it came from): {'; '.join(wrong)}")
    typed = got["typed"]
    missing = [(r, c) for r in range(4) for c in range(4) if [r, c] not in typed["squares"]]
    assert not missing, (
        f"get_move() on a new 4 x 4 game gave no move for square(s) {missing} whatever was "
        "typed (a square number, 'row col', 'row,col', or row and column at two prompts, "
        "counted from 0 or 1)")
    assert not typed["crashed"], (
        "apply_move must return None for a move off the board that get_move() gave (GameView "
        f"then asks again), but it raised: {typed['crashed'][0]}")
