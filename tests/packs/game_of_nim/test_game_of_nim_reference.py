"""The reference GameOfNim has the facts the spec and the handout state."""

from __future__ import annotations

from types import SimpleNamespace as NimEnv

import pytest

from graders.packs.game_of_nim.checks import FINISHED
from tests.in_process import terminal


def test_initial_state_of_the_spec_board(env: NimEnv) -> None:
    game = env.nim.GameOfNim([0, 5, 3, 1])
    assert game.initial == env.games.GameState(
        to_move="MAX",
        utility=0,
        board=[0, 5, 3, 1],
        moves=[(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 1), (2, 2), (2, 3), (3, 1)],
    )
    handout = env.nim.GameOfNim(board=[0, 2, 3, 1])
    assert handout.actions(handout.initial) == [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 1)]


def test_result_is_a_new_state_with_the_turn_switched(env: NimEnv) -> None:
    game = env.nim.GameOfNim([0, 5, 3, 1])
    start = game.initial
    after = game.result(start, (1, 3))
    assert after.to_move == "MIN" and after.board == [0, 2, 3, 1] and after.utility == 0
    assert after.moves == [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 1)]
    assert start.board == [0, 5, 3, 1] and len(start.moves) == 9
    assert game.result(after, (2, 3)).to_move == "MAX"


@pytest.mark.parametrize(
    ("board", "over"), [([0, 0, 0], True), ([], True), ([0, 3, 0], False), ([1], False)]
)
def test_terminal_test(env: NimEnv, board: list, over: bool) -> None:
    game = env.nim.GameOfNim(board)
    assert game.terminal_test(game.initial) is over


@pytest.mark.parametrize(("rule", "max_score"), [("misere", -1), ("normal", 1)])
def test_utility_from_both_views(env: NimEnv, rule: str, max_score: int) -> None:
    game = env.nim.GameOfNim([1, 1], rule=rule)
    state = game.result(game.result(game.initial, (0, 1)), (1, 1))  # MIN took the last one
    assert game.terminal_test(state)
    assert (game.utility(state, "MAX"), game.utility(state, "MIN")) == (-max_score, max_score)
    state = game.result(env.nim.GameOfNim([0, 2], rule=rule).initial, (1, 2))  # MAX took it
    assert (game.utility(state, "MAX"), game.utility(state, "MIN")) == (max_score, -max_score)


def test_unknown_rule_is_refused(env: NimEnv) -> None:
    with pytest.raises(ValueError, match="rule"):
        env.nim.GameOfNim([1], rule="last-wins")


@pytest.mark.parametrize(("rule", "move"), [("misere", (0, 2)), ("normal", (0, 1))])
def test_rule_probe_from_2_1(env: NimEnv, rule: str, move: tuple) -> None:
    game = env.nim.GameOfNim([2, 1], rule=rule)
    assert env.games.alpha_beta_search(game.initial, game) == move
    assert env.games.minmax_decision(game.initial, game) == move


def test_first_player_loses_the_handout_board_under_misere(env: NimEnv) -> None:
    # 7 ^ 5 ^ 3 ^ 1 == 0 with a row above 1: a lost position, so every move has the same value
    # and alpha-beta keeps the first one, as in the handout.
    game = env.nim.GameOfNim([7, 5, 3, 1])
    assert env.driver.fast_alpha_beta(game.initial, game) == (0, 1)
    values = env.driver.move_values([7, 5, 3, 1], [])
    assert {value for _, value in values} == {-1}


def test_main_program_plays_the_handout_game(env: NimEnv) -> None:
    typed = ["(1,1)", "(3,1)", "(2,1)"]
    utility, out = terminal(typed, env.play.main, [0, 5, 3, 1])
    assert utility is None
    lines = out.splitlines()
    assert lines[:3] == ["board: [0, 5, 3, 1]", "(1, 3)", "board: [0, 2, 3, 1]"]
    assert lines[-1] == "MAX won the game"
    assert out.count("Your move? ") == 3
    assert "board: [0, 0, 0, 0]\nMAX won the game" in out


def test_play_game_reports_the_winner_for_max(env: NimEnv) -> None:
    g = env.games
    # Three single objects: the first player takes the last one under perfect play.
    for rule, expected in (("misere", -1), ("normal", 1)):
        game = env.nim.GameOfNim([1, 1, 1], rule=rule)
        assert game.play_game(g.alpha_beta_player, g.alpha_beta_player) == expected


def test_each_utility_case_is_a_game_won_and_a_game_lost_by_the_first_player(env: NimEnv) -> None:
    """The utility test's pairs (no vacuous credit for a constant): each game empties its
    board, and the first player takes the last object in exactly one game of the pair."""
    for pair in FINISHED:
        for board, moves in pair:
            game = env.nim.GameOfNim(board)
            state = game.initial
            for move in moves:
                state = game.result(state, tuple(move))
            assert game.terminal_test(state), (board, moves)
        assert sorted(len(moves) % 2 for _, moves in pair) == [0, 1], pair
