"""The tippy oracle and position generator, checked against brute force and their own claims."""

from __future__ import annotations

import pytest

from graders.packs.tippy import generate, oracle


def brute_value(board: list[str], mark: str) -> int:
    """Plain negamax with no memo: the handout's definition, literally."""
    other = "O" if mark == "X" else "X"
    if oracle.find_tippy(board, other):
        return -1
    empties = [(r, c) for r, row in enumerate(board) for c, m in enumerate(row) if m == "."]
    if not empties:
        return 0
    return max(-brute_value(oracle.play(board, cell, mark), other) for cell in empties)


@pytest.mark.parametrize("n", range(3, 8))
def test_there_are_four_n_minus_one_n_minus_two_tippies(n):
    assert len(set(oracle.tippies(n))) == 4 * (n - 1) * (n - 2)



@pytest.mark.parametrize("n", range(3, 7))
def test_every_single_tippy_is_a_win_and_nothing_smaller_is(n):
    for tippy in oracle.tippies(n):
        board = oracle.empty_board(n)
        for cell in tippy[:3]:
            board = oracle.play(board, cell, "O")
        assert oracle.status(board) is None
        board = oracle.play(board, tippy[3], "O")
        assert oracle.status(board) == "p2" and oracle.find_tippy(board, "O") == tippy


@pytest.mark.parametrize(("n", "empty", "seeds"), [(3, 6, 30), (3, 7, 6), (4, 6, 30)])
def test_solver_matches_brute_force(n, empty, seeds):
    for seed in range(seeds):
        cells = generate.random_game(n, seed, stop_at_empty=empty)
        board = oracle.replay(n, cells)
        if oracle.status(board) is not None:
            continue
        player = "p1" if len(cells) % 2 == 0 else "p2"
        assert oracle.value(board, player) == brute_value(board, oracle.MARK_OF[player])


def test_only_the_centre_wins_the_empty_3_by_3():
    values = oracle.move_values(oracle.empty_board(3), "p1")
    assert {cell for cell, v in values.items() if v == 1} == {(1, 1)}


def test_replay_refuses_taken_squares_and_moves_after_the_end():
    with pytest.raises(ValueError, match="taken"):
        oracle.replay(3, [[0, 0], [0, 0]])
    with pytest.raises(ValueError, match="over"):
        oracle.replay(3, [[0, 0], [2, 0], [0, 1], [2, 1], [1, 1], [0, 2], [1, 2], [2, 2]])
    with pytest.raises(ValueError, match="n x n"):
        oracle.status(["XX", ".."])
    assert oracle.legal_moves(["XXO", ".XX", "OO."]) == []


@pytest.mark.parametrize("n", range(3, 7))
def test_generated_games_are_what_they_claim(n):
    for winner in ("p1", "p2"):
        games = generate.tippy_games(n, winner)
        assert [t for t, _ in games] == list(oracle.tippies(n))
        for tippy, cells in games:
            board = oracle.replay(n, cells)
            assert oracle.status(board) == winner
            assert oracle.find_tippy(board, oracle.MARK_OF[winner]) == tippy
    shapes = generate.non_tippy_games(n)
    assert {name.split(" at ")[0] for name, _ in shapes} >= {"square", "T up", "L", "row"}
    for _, cells in shapes:
        assert oracle.status(oracle.replay(n, cells)) is None
    tie = generate.tie_game(n)
    assert len(tie) == n * n and oracle.status(oracle.replay(n, tie)) == "tie"


def test_generators_are_deterministic():
    assert generate.tippy_games(5) == generate.tippy_games(5)
    assert generate.tie_game(4, 3) == generate.tie_game(4, 3)
    assert generate.random_game(5, 2) == generate.random_game(5, 2)
    assert generate.minimax_positions(3, 6, 3, seed=4) == generate.minimax_positions(3, 6, 3, 4)


def test_minimax_positions_leave_room_for_a_wrong_choice():
    for position in generate.minimax_positions(4, 6, 5, seed=1):
        assert set(map(tuple, position["best"])) < set(map(tuple, position["moves"]))
        assert position["value"] in (0, 1)
    wins = generate.minimax_positions(3, 7, 2, seed=1, value=1)
    assert all(p["value"] == 1 for p in wins)


def test_until_over_stops_at_the_winning_move():
    order = [(0, 0), (2, 0), (0, 1), (2, 1), (1, 1), (0, 2), (1, 2), (2, 2), (1, 0)]
    assert generate.until_over(3, order) == [list(cell) for cell in order[:7]]
    assert generate.until_over(3, order[:4]) == [list(cell) for cell in order[:4]]
