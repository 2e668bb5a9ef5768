"""The pack's parent-side oracle (oracle.py) agrees with the reference and the
handout."""

from __future__ import annotations

import itertools

import pytest

from graders.packs.game_of_nim.oracle import (
    board_after,
    first_player_wins,
    legal_moves,
    path_from_choices,
)


def test_legal_moves_in_the_handouts_order():
    assert legal_moves([0, 2, 3, 1]) == [[1, 1], [1, 2], [2, 1], [2, 2], [2, 3], [3, 1]]
    assert legal_moves([0, 0]) == []


def test_board_after_refuses_illegal_moves():
    assert board_after([3, 1], [[0, 2], [1, 1]]) == [1, 0]
    for move in ([0, 0], [1, 2], [0, 4]):
        with pytest.raises(ValueError, match="illegal"):
            board_after([3, 1], [move])


def test_paths_are_legal_and_stop_at_the_end():
    path = path_from_choices([2, 0, 1], [5, 5, 5, 5, 5])
    assert board_after([2, 0, 1], path) == [0, 0, 0]
    assert path == [[2, 1], [0, 2]]
    assert path_from_choices([3, 2], [1, 0]) == [[0, 2], [0, 1]]


def test_unknown_rule_is_refused():
    with pytest.raises(ValueError, match="rule"):
        first_player_wins(1, "last-wins")


@pytest.mark.parametrize("rule", ["misere", "normal"])
def test_oracle_matches_the_reference(env, rule: str) -> None:
    for board in itertools.product(range(3), repeat=3):
        game = env.nim.GameOfNim(list(board), rule=rule)
        assert [list(m) for m in game.initial.moves] == legal_moves(board)
        path = [[row, size] for row, size in enumerate(board) if size]  # one row per move
        state = game.initial
        for move in path:
            state = game.result(state, tuple(move))
        if path:
            assert (game.utility(state, "MAX") > 0) == first_player_wins(len(path), rule)
