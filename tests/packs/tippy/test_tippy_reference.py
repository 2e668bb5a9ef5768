"""Facts about the tippy reference solution and starter files, proven against the oracle."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from graders.pack import get_pack
from graders.packs.tippy import generate, oracle
from tests.in_process import on_path, workspace

PACK = get_pack("tippy")
REFERENCE, TEMPLATES = PACK.reference_dir, PACK.templates_dir


@pytest.fixture(scope="module")
def ref(tmp_path_factory) -> Iterator[SimpleNamespace]:
    """The reference modules, imported from a workspace of the reference."""
    with on_path(workspace(PACK, tmp_path_factory.mktemp("reference"), REFERENCE)):
        import strategy_minimax
        import tippy_game_state
        import tippy_move

        yield SimpleNamespace(state=tippy_game_state, move=tippy_move, minimax=strategy_minimax)


def to_plain(state) -> list[str]:
    """The reference board in the oracle's notation."""
    return ["".join("." if m == " " else m for m in row) for row in state.board]


def replay(ref, n: int, cells):
    state = ref.state.TippyGameState("p1", size=n)
    for r, c in cells:
        state = state.apply_move(ref.move.TippyMove(r, c))
        assert state is not None, (r, c)
    return state


@pytest.mark.parametrize("n", range(3, 9))
def test_there_are_4_n_minus_1_n_minus_2_tippies(ref, n):
    expected = 4 * (n - 1) * (n - 2)
    assert len(ref.state.tippies(n)) == len(oracle.tippies(n)) == expected
    reference_set = {tuple(sorted(t)) for t in ref.state.tippies(n)}
    assert reference_set == set(oracle.tippies(n))


def test_handout_counts_8_tippies_on_3_by_3_and_24_on_4_by_4():
    assert (len(oracle.tippies(3)), len(oracle.tippies(4))) == (8, 24)


def test_first_player_wins_3_by_3_with_perfect_play(ref):
    assert oracle.value(oracle.empty_board(3), "p1") == 1
    # Proof by the reference: after p1 takes the centre, every reply of p2 loses.
    centre = ref.state.TippyGameState("p1", size=3).apply_move(ref.move.TippyMove(1, 1))
    assert ref.minimax.best_move_and_score(centre)[1] == centre.LOSE


def test_handout_examples_are_wins_for_x(ref):
    examples = [["XXO", "OXX", "O.."], ["OXX", "XXO", "O.."],
                ["XOO", "XX.", "OX."], ["OOX", ".XX", "OX."]]
    for board in examples:
        rows = [[" " if m == "." else m for m in row] for row in board]
        state = ref.state.TippyGameState("p2", size=3, board=rows)
        assert state.winner("p1") and not state.winner("p2") and state.over
        assert oracle.status(board) == "p1"


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_reference_agrees_with_oracle_on_random_games(ref, n):
    for seed in range(12):
        cells = generate.random_game(n, seed)
        state = ref.state.TippyGameState("p1", size=n)
        for i in range(len(cells) + 1):
            board = oracle.replay(n, cells[:i])
            assert to_plain(state) == board
            assert state.over == (oracle.status(board) is not None)
            for player in ("p1", "p2"):
                assert state.winner(player) == (oracle.status(board) == player)
            moves = sorted((m.row, m.column) for m in state.possible_next_moves())
            assert moves == oracle.legal_moves(board)
            assert state.rough_outcome() in (-1.0, 0.0, 1.0)
            if i < len(cells):
                state = state.apply_move(ref.move.TippyMove(*cells[i]))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_reference_ties_on_a_full_board_without_tippy(ref, n):
    state = replay(ref, n, generate.tie_game(n))
    assert state.over and state.possible_next_moves() == []
    assert not state.winner("p1") and not state.winner("p2")
    assert state.outcome() == state.DRAW


def test_apply_move_returns_new_state_and_refuses_illegal_moves(ref):
    start = ref.state.TippyGameState("p1", size=3)
    after = start.apply_move(ref.move.TippyMove(1, 1))
    assert after is not start and to_plain(start) == ["..."] * 3
    assert (start.next_player, after.next_player) == ("p1", "p2")
    for bad in [ref.move.TippyMove(1, 1), ref.move.TippyMove(3, 0), ref.move.TippyMove(0, -1),
                "1 1"]:
        assert after.apply_move(bad) is None
    won = replay(ref, 3, [[0, 0], [2, 0], [0, 1], [2, 1], [1, 1], [0, 2], [1, 2]])
    assert won.over and won.apply_move(ref.move.TippyMove(2, 2)) is None


@pytest.mark.parametrize(("n", "empty"), [(3, 6), (3, 7), (4, 6), (5, 5)])
def test_reference_minimax_plays_an_optimal_move(ref, n, empty):
    for position in generate.minimax_positions(n, empty, 4, seed=7):
        state = replay(ref, n, position["cells"])
        move = ref.minimax.StrategyMinimax().suggest_move(state)
        assert [move.row, move.column] in position["best"]


def test_reference_rough_outcome_is_never_wrong_about_wins_and_losses(ref):
    seen = set()
    for seed in range(40):
        cells = generate.random_game(4, seed, stop_at_empty=7)
        state = replay(ref, 4, cells)
        if state.over:
            continue
        rough = state.rough_outcome()
        seen.add(rough)
        if rough != state.DRAW:
            assert oracle.value(to_plain(state), state.next_player) == rough
    assert seen == {-1.0, 0.0, 1.0}
    one_to_go = replay(ref, 3, [[0, 0], [2, 0], [0, 1], [2, 2], [1, 1]])
    assert one_to_go.apply_move(ref.move.TippyMove(0, 2)).rough_outcome() == one_to_go.WIN


def test_interactive_constructor_asks_for_the_size(ref, monkeypatch):
    answers = iter(["2", "x", "5"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    state = ref.state.TippyGameState("p2", interactive=True)
    assert state.size == 5 and len(state.possible_next_moves()) == 25
    assert state.next_player == "p2"


def test_get_move_reads_row_and_column(ref, monkeypatch):
    state = ref.state.TippyGameState("p1", size=4)
    monkeypatch.setattr("builtins.input", lambda prompt="": "2 3")
    assert state.get_move() == ref.move.TippyMove(2, 3)
    monkeypatch.setattr("builtins.input", lambda prompt="": "two")
    assert state.apply_move(state.get_move()) is None


def run_game_view(folder, stdin: str) -> subprocess.CompletedProcess:
    code = "import runpy; runpy.run_path('game_view.py', run_name='__main__')"
    env = {"PYTHONPATH": f"{folder}:{TEMPLATES}", "PATH": "/usr/bin:/bin",
           "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                          text=True, cwd=folder, env=env, timeout=60, check=False)


def test_reference_game_view_plays_tippy_against_minimax():
    moves = "".join(f"{r} {c}\n" for r in range(3) for c in range(3))
    result = run_game_view(REFERENCE, "t\nm\n\n3\n1 1\n" + moves)
    assert result.returncode == 0, result.stderr
    assert "Size of the grid (at least 3)? " in result.stdout
    assert result.stdout.strip().splitlines()[-1] in {
        "Beat ya!", "Congrats -- you won!!", "We tied..."}
    assert "The computer chooses: Mark row" in result.stdout
    assert "t to play Tippy" in result.stdout


def test_starter_game_view_still_plays_subtract_square():
    result = run_game_view(TEMPLATES, "s\nr\n\n1\n" + "1\n" * 5)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "Congrats -- you won!!"
    assert "You choose: Remove 1" in result.stdout


def test_starter_game_view_is_the_courses():
    """The spec's facts: no module docstring, imports inside __main__, the two prompts."""
    source = (TEMPLATES / "game_view.py").read_text()
    assert source.startswith("class GameView:")
    assert "    from subtract_square_state import SubtractSquareState" in source
    assert "input('s to play Subtract Square, ')" in source
    assert "input('r for random strategy for computer: ')" in source
    assert "while self.state.possible_next_moves():" in source


def test_starter_game_view_asks_again_after_an_illegal_move():
    result = run_game_view(TEMPLATES, "s\nr\n\n1\n5\n1\n")
    assert result.returncode == 0, result.stderr
    assert "Illegal move: Remove 5\nPlease try again." in result.stdout
