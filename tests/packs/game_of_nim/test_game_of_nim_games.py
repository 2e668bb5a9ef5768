"""The starter's games.py reproduces the classic AIMA games API and its known answers."""

from __future__ import annotations

import ast
import builtins
from types import SimpleNamespace as NimEnv

import pytest

from graders.pack import get_pack

TEMPLATES = get_pack("game_of_nim").templates_dir


def test_gamestate_fields_in_textbook_order(env: NimEnv) -> None:
    assert env.games.GameState._fields == ("to_move", "utility", "board", "moves")
    state = env.games.GameState("X", 0, {}, [(1, 1)])
    assert (state.to_move, state.utility, state.board, state.moves) == ("X", 0, {}, [(1, 1)])


def test_game_defaults(env: NimEnv, capsys: pytest.CaptureFixture[str]) -> None:
    class Two(env.games.Game):
        def actions(self, state):
            return state.moves

    game = Two()
    state = env.games.GameState("MAX", 0, [1], [(0, 1)])
    assert game.terminal_test(state) is False
    assert game.terminal_test(state._replace(moves=[])) is True
    assert game.to_move(state) == "MAX"
    assert repr(game) == "<Two>"
    game.display(state)
    assert capsys.readouterr().out == f"{state}\n"
    for method, args in (("result", (state, (0, 1))), ("utility", (state, "MAX"))):
        with pytest.raises(NotImplementedError):
            getattr(game, method)(*args)
    with pytest.raises(NotImplementedError):
        env.games.Game().actions(state)


@pytest.mark.parametrize(("state", "move"), [("A", "a1"), ("B", "b1"), ("C", "c1"), ("D", "d3")])
def test_fig52_searches_pick_the_textbook_moves(env: NimEnv, state: str, move: str) -> None:
    g = env.games
    game = g.Fig52Game()
    assert g.minmax_decision(state, game) == move
    assert g.alpha_beta_search(state, game) == move
    assert g.alpha_beta_cutoff_search(state, game) == move


def test_fig52_play_game_returns_3(env: NimEnv, capsys: pytest.CaptureFixture[str]) -> None:
    g = env.games
    assert g.Fig52Game().play_game(g.alpha_beta_player, g.alpha_beta_player) == 3
    assert capsys.readouterr().out == "B1\n"  # play_game displays the final state once
    assert g.Fig52Game().play_game(g.minmax_player, g.minmax_player) == 3


def test_alpha_beta_keeps_the_first_of_equal_moves(env: NimEnv) -> None:
    g = env.games

    class Flat(g.Fig52Game):
        utils = dict.fromkeys(g.Fig52Game.utils, 1)

    assert g.alpha_beta_search("A", Flat()) == "a1"
    assert g.minmax_decision("A", Flat()) == "a1"


def test_cutoff_search_uses_the_evaluation_below_the_depth(env: NimEnv) -> None:
    g = env.games
    game = g.Fig52Game()

    def prefer_d(state):
        return 100 if state == "D" else 0

    def shallow(state, depth):
        return depth > 0

    assert g.alpha_beta_cutoff_search("A", game, cutoff_test=shallow, eval_fn=prefer_d) == "a3"
    assert g.alpha_beta_cutoff_search("A", game, d=0, eval_fn=prefer_d) == "a3"
    assert g.alpha_beta_cutoff_search("A", game, d=1, eval_fn=prefer_d) == "a1"


def ttt_state(g, to_move: str, xs: list, os: list):
    board = {**dict.fromkeys(xs, "X"), **dict.fromkeys(os, "O")}
    moves = [(x, y) for x in range(1, 4) for y in range(1, 4) if (x, y) not in board]
    return g.GameState(to_move=to_move, utility=0, board=board, moves=moves)


@pytest.mark.parametrize(
    ("to_move", "xs", "os", "best"),
    [
        # Against a corner opening, the centre is O's only reply that does not lose.
        ("O", [(1, 1)], [], (2, 2)),
        # X completes the top row (the first empty square, and a win).
        ("X", [(1, 1), (1, 2)], [(2, 1), (2, 2)], (1, 3)),
        # O must block the top row at once; anything else loses.
        ("O", [(1, 1), (1, 2)], [(2, 2)], (1, 3)),
        # The centre wins for X, and every other move lets O win there.
        ("X", [(1, 1), (3, 3)], [(1, 3), (3, 1)], (2, 2)),
    ],
)
def test_tictactoe_positions(env: NimEnv, to_move: str, xs: list, os: list, best: tuple) -> None:
    g = env.games
    game = g.TicTacToe()
    state = ttt_state(g, to_move, xs, os)
    assert g.alpha_beta_search(state, game) == best
    assert g.minmax_decision(state, game) == best


def test_tictactoe_rules(env: NimEnv, capsys: pytest.CaptureFixture[str]) -> None:
    g = env.games
    game = g.TicTacToe()
    assert game.initial.to_move == "X" and len(game.actions(game.initial)) == 9
    state = game.initial
    for move in [(1, 1), (2, 1), (2, 2), (3, 1), (3, 3)]:
        state = game.result(state, move)
    assert game.terminal_test(state) and state.utility == 1
    assert (game.utility(state, "X"), game.utility(state, "O")) == (1, -1)
    assert game.result(state, (1, 1)) is state  # an illegal move has no effect
    assert state.to_move == "O" and (1, 1) not in state.moves
    game.display(state)
    assert capsys.readouterr().out == "X . . \nO X . \nO . X \n"


def test_tictactoe_perfect_play_is_a_draw(env: NimEnv) -> None:
    g = env.games
    game = g.TicTacToe()
    assert game.play_game(g.alpha_beta_player, g.alpha_beta_player) == 0


def test_query_player_prompts_and_reads_a_literal(
    env: NimEnv, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    g = env.games
    game = env.nim.GameOfNim([0, 2])
    prompts = []
    answers = iter(["(1,2)", "a1", "__import__('os').getcwd()"])
    monkeypatch.setattr(
        builtins, "input", lambda prompt="": prompts.append(prompt) or next(answers)
    )
    assert g.query_player(game, game.initial) == (1, 2)
    assert capsys.readouterr().out == (
        "current state:\nboard: [0, 2]\navailable moves: [(1, 1), (1, 2)]\n\n"
    )
    assert g.query_player(g.Fig52Game(), "A") == "a1"
    # Not a literal: kept as text and never executed.
    assert g.query_player(game, game.initial) == "__import__('os').getcwd()"
    assert prompts == ["Your move? "] * 3


def test_query_player_passes_without_moves(
    env: NimEnv, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_input(prompt: str = "") -> str:
        raise AssertionError("must not ask")

    monkeypatch.setattr(builtins, "input", no_input)
    game = env.nim.GameOfNim([0, 0])
    assert env.games.query_player(game, game.initial) is None
    assert capsys.readouterr().out.endswith(
        "available moves: []\n\nno legal moves: passing turn to next player\n"
    )


def test_games_source_never_calls_eval() -> None:
    tree = ast.parse((TEMPLATES / "games.py").read_text())
    calls = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not calls & {"eval", "exec"}


def test_random_player_picks_a_legal_move(env: NimEnv) -> None:
    game = env.nim.GameOfNim([2, 1])
    seen = {env.games.random_player(game, game.initial) for _ in range(200)}
    assert seen == {(0, 1), (0, 2), (1, 1)}
    assert env.games.random_player(game, game.result(game.initial, (0, 2))) == (1, 1)
    empty = env.nim.GameOfNim([0])
    assert env.games.random_player(empty, empty.initial) is None
