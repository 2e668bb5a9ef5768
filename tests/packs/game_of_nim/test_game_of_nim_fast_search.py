"""The driver's memoised search picks exactly the move of the textbook's alpha_beta_search.

The grader plays the handout's game with ``driver.fast_alpha_beta`` because a plain alpha-beta
from [7, 5, 3, 1] takes many seconds. These tests prove the two agree on every board up to a
size, from both players' turns, under both rules, and on the sample submissions' (pure but
buggy) games, whose moves the grader also searches.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace as NimEnv

import pytest

from graders.pack import get_pack

SUBMISSIONS = get_pack("game_of_nim").fixtures_dir / "submissions"

# Every board of 1-2 rows of 0..6 objects, 3 rows of 0..4 and 4 rows of 0..2.
BOARDS = [
    list(sizes)
    for rows, top in ((1, 6), (2, 6), (3, 4), (4, 2))
    for sizes in itertools.product(range(top + 1), repeat=rows)
]
# Pure games (methods depend on the state only); mutates_board is not, and is left out.
PURE_SAMPLES = [
    "correct_misere",
    "normal_play",
    "wrong_move_order",
    "no_turn_switch",
    "utility_inverted_min",
    "terminal_empty_rows",
    "list_moves",
    "other_names",
    "players_a_b",
    "utility_literal_max",
    "class_in_helper",
]


def roots(game) -> list:
    """The initial state and, when there is one, the state after the first move."""
    states = [game.initial]
    moves = game.actions(game.initial)
    if moves:
        states.append(game.result(game.initial, moves[0]))
    return states


def disagreements(env: NimEnv, make_game, boards: list) -> list:
    found = []
    for board in boards:
        game = make_game(board)
        for state in roots(game):
            plain = env.games.alpha_beta_search(state, game)
            fast = env.driver.fast_alpha_beta(state, game)
            if plain != fast:
                found.append((board, state, plain, fast))
    return found


@pytest.mark.parametrize("rule", ["misere", "normal"])
def test_same_move_as_alpha_beta_on_every_small_board(env: NimEnv, rule: str) -> None:
    assert disagreements(env, lambda b: env.nim.GameOfNim(b, rule=rule), BOARDS) == []


@pytest.mark.parametrize("sample", PURE_SAMPLES)
def test_same_move_on_sample_submission_games(nim, sample: str) -> None:
    env = nim(SUBMISSIONS / sample)
    small = [board for board in BOARDS if sum(board) <= 6]
    assert disagreements(env, env.nim.GameOfNim, small) == []


def test_levels_alternate_by_depth_as_in_alpha_beta(env: NimEnv) -> None:

    class ExtraTurn(env.nim.GameOfNim):
        """Emptying a row earns another move: turns no longer alternate with depth."""

        def result(self, state, move):
            new = super().result(state, move)
            return new._replace(to_move=state.to_move) if new.board[move[0]] == 0 else new

    small = [board for board in BOARDS if sum(board) <= 7]
    assert disagreements(env, ExtraTurn, small) == []


def test_same_move_on_the_textbook_games(env: NimEnv) -> None:
    g = env.games
    fig52 = g.Fig52Game()
    for state in "ABCD":
        assert env.driver.fast_alpha_beta(state, fig52) == g.alpha_beta_search(state, fig52)
    ttt = g.TicTacToe()
    state = ttt.initial
    for move in [(1, 1), (2, 2), (1, 2), (1, 3)]:
        state = ttt.result(state, move)
        assert env.driver.fast_alpha_beta(state, ttt) == g.alpha_beta_search(state, ttt)


def test_the_handout_board_is_searched_quickly(env: NimEnv) -> None:
    game = env.nim.GameOfNim([7, 5, 3, 1])
    after = game.result(game.initial, (0, 1))
    assert env.driver.fast_alpha_beta(game.initial, game) == (0, 1)
    # Human to move on a losing-for-MAX board: MIN has a winning reply (xor != 0).
    values = dict(
        (tuple(move), value) for move, value in env.driver.move_values([7, 5, 3, 1], [[0, 1]])
    )
    assert max(values.values()) == 1
    assert env.driver.fast_alpha_beta(after, game) == min(
        move for move, value in values.items() if value == 1
    )


def test_samples_exist() -> None:
    for sample in PURE_SAMPLES:
        assert (SUBMISSIONS / sample / "game_of_nim.py").is_file()
