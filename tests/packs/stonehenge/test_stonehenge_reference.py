"""The stonehenge reference solution: the spec's boards byte for byte, the oracle's answers
everywhere else, and both minimax strategies correct."""

from __future__ import annotations

import builtins
import random

import pytest
from stonehenge_boards import SIDE_1, SIDE_2, SIDE_2_AGDEF, SIDE_3, SIDE_3_ONLY_H

from graders.packs.stonehenge import generate, oracle
from graders.solver import SUBTRACT_SQUARE


def new_game(ref, monkeypatch, side, p1_starts=True, moves=""):
    prompts = []
    monkeypatch.setattr(builtins, "input", lambda prompt="": prompts.append(prompt) or str(side))
    game = ref["game_interface"].playable_games["h"](p1_starts)
    for letter in moves:
        game.current_state = game.current_state.make_move(game.str_to_move(letter))
    return game, prompts


@pytest.mark.parametrize(("side", "text"), [(1, SIDE_1), (2, SIDE_2), (3, SIDE_3)])
def test_empty_boards_are_the_spec_bytes(ref, monkeypatch, side, text):
    game, prompts = new_game(ref, monkeypatch, side)
    assert str(game.current_state) == text
    assert len(prompts) == 1


def test_spec_positions(ref, monkeypatch):
    game, _ = new_game(ref, monkeypatch, 2, True, "AGDEF")
    assert str(game.current_state) == SIDE_2_AGDEF
    assert game.is_over(game.current_state) and game.is_winner("p1")
    assert not game.is_winner("p2")
    game, _ = new_game(ref, monkeypatch, 3, False, "KACBFEGDI")
    assert str(game.current_state) == SIDE_3_ONLY_H


@pytest.mark.parametrize("side", [1, 2, 3, 4, 5])
def test_every_prefix_of_random_games_matches_the_oracle(ref, monkeypatch, side):
    for item in generate.games(seed=side, count=6, sides=(side,)):
        game, _ = new_game(ref, monkeypatch, side, item["p1_starts"])
        positions = oracle.trace(side, item["p1_starts"], item["moves"])
        for pos, letter in zip(positions, [*item["moves"], None], strict=True):
            state = game.current_state
            assert str(state) == oracle.render(pos)
            assert state.get_possible_moves() == oracle.moves(pos)
            assert state.get_current_player_name() == pos.player
            assert game.is_over(state) == bool(oracle.winner(pos))
            assert [game.is_winner(p) for p in ("p1", "p2")] == [
                oracle.winner(pos) == p for p in ("p1", "p2")]
            assert state.rough_outcome() == oracle.rough_outcome(pos)
            if letter is not None:
                game.current_state = state.make_move(game.str_to_move(letter))
                assert str(state) == oracle.render(pos), "make_move changed its state"


def test_repr_semantics(ref, monkeypatch):
    p1_first, _ = new_game(ref, monkeypatch, 2, True)
    p2_first, _ = new_game(ref, monkeypatch, 2, False)
    assert repr(p1_first.current_state) != repr(p2_first.current_state)
    for pair in generate.transpositions(seed=3, count=4):
        a, _ = new_game(ref, monkeypatch, pair["side"], pair["p1_starts"], pair["first"])
        b, _ = new_game(ref, monkeypatch, pair["side"], pair["p1_starts"], pair["second"])
        assert repr(a.current_state) == repr(b.current_state)


def test_invalid_moves(ref, monkeypatch):
    game, _ = new_game(ref, monkeypatch, 1)
    assert game.current_state.is_valid_move(game.str_to_move("A"))
    assert not game.current_state.is_valid_move(game.str_to_move("D"))
    assert game.current_state.make_move("A").get_possible_moves() == []


def _strategies(ref):
    return [ref["game_interface"].usable_strategies[key] for key in ("mr", "mi")]


@pytest.mark.parametrize("total", [4, 6, 18, 20])
def test_strategies_on_subtract_square(ref, monkeypatch, total):
    monkeypatch.setattr(builtins, "input", lambda prompt="": str(total))
    for strategy in _strategies(ref):
        game = ref["game_interface"].playable_games["s"](True)
        assert strategy(game) in SUBTRACT_SQUARE.best_moves(total)


def test_strategies_on_spec_positions(ref, monkeypatch):
    for side, p1_starts, moves, best in [(3, False, "KACBFEGDI", "H"), (2, True, "AFD", "E")]:
        for strategy in _strategies(ref):
            game, _ = new_game(ref, monkeypatch, side, p1_starts, moves)
            before = repr(game.current_state)
            assert strategy(game) == best
            assert repr(game.current_state) == before


def test_strategies_on_generated_positions(ref, monkeypatch):
    rng = random.Random(0)
    for item in generate.search_positions(seed=1, count=8):
        strategy = rng.choice(_strategies(ref))
        game, _ = new_game(ref, monkeypatch, item["side"], item["p1_starts"], item["moves"])
        assert strategy(game) in item["best"]
