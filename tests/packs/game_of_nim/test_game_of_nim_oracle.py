"""The pack's parent-side oracle (generate.py) agrees with the reference and the handout."""

from __future__ import annotations

import itertools

import pytest
from game_of_nim_harness import install

from graders.packs.game_of_nim import generate as gen


def test_legal_moves_in_the_handouts_order():
    assert gen.legal_moves([0, 2, 3, 1]) == [[1, 1], [1, 2], [2, 1], [2, 2], [2, 3], [3, 1]]
    assert gen.legal_moves([0, 0]) == []


def test_apply_move_refuses_illegal_moves():
    assert gen.apply_move([3, 1], [0, 2]) == [1, 1]
    for move in ([0, 0], [1, 2], [0, 4]):
        with pytest.raises(ValueError, match="illegal"):
            gen.apply_move([3, 1], move)


def test_paths_are_legal_and_stop_at_the_end():
    path = gen.path_from_choices([2, 0, 1], [5, 5, 5, 5, 5])
    assert gen.board_after([2, 0, 1], path) == [0, 0, 0]
    assert len(path) <= 3
    assert gen.finishing_path([2, 0, 1]) == [[0, 2], [2, 1]]


def test_seeded_positions_are_reproducible_and_legal():
    first = gen.seeded_positions(7, 20)
    assert first == gen.seeded_positions(7, 20) != gen.seeded_positions(8, 20)
    for board, path in first:
        assert all(size >= 0 for size in gen.board_after(board, path))


def test_unknown_rule_is_refused():
    with pytest.raises(ValueError, match="rule"):
        gen.first_player_wins(1, "last-wins")


@pytest.mark.parametrize("rule", ["misere", "normal"])
def test_oracle_matches_the_reference(monkeypatch: pytest.MonkeyPatch, rule: str) -> None:
    env = install(monkeypatch)
    for board in itertools.product(range(3), repeat=3):
        game = env.nim.GameOfNim(list(board), rule=rule)
        assert [list(m) for m in game.initial.moves] == gen.legal_moves(board)
        path = gen.finishing_path(board)
        state = game.initial
        for move in path:
            state = game.result(state, tuple(move))
        if path:
            first_wins = game.utility(state, "MAX") > 0
            assert first_wins == gen.first_player_wins(len(path), rule)
