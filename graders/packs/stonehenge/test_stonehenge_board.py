"""Grader tests for str(state) and game_interface.py (parent side, plain data only).

Boards are compared token by token, as the course's own tests did ("formatted in exactly the
same way" is not required): per line, the markers (`@`, `1`, `2`) and cells (letters, `1`, `2`)
in order; spacing and separators (`-`, `/`, `\\`, `|`, none at all) are not graded. Expected
boards come from the oracle, which draws the spec's layout exactly.
"""

from __future__ import annotations

import pytest

from graders.packs.stonehenge import expect, generate, oracle

RANDOM_GAMES = generate.games(seed=2018, count=10, sides=(1, 2, 3, 4, 5))


def check_boards(student, side, p1_starts, moves):
    snaps = student.call("trace", side, p1_starts, list(moves), ["board"])
    expect.expect_snapshots(snaps, side, p1_starts, list(moves), ["board"])


@pytest.mark.public
def test_interface_names_game_and_strategies(student):
    info = student.call("interface")
    assert "h" in info["games"], (
        f"game_interface.playable_games has the keys {info['games']}; add 'h' for your "
        "Stonehenge game class")
    assert info["h_is_class"], "playable_games['h'] must be the game CLASS (not an instance)"
    missing = [key for key in ("mr", "mi") if not info["callable"].get(key)]
    assert not missing, (
        f"game_interface.usable_strategies has no function under {missing} (keys: "
        f"{info['strategies']}); name your recursive minimax 'mr' and iterative one 'mi'")


@pytest.mark.public
def test_interface_plays_a_game_to_its_end(student):
    """The starter's own loop (GameInterface.play) runs the spec's side-2 game: the loop is
    the course's code, so only that the game is playable through it is graded, not what it
    prints."""
    moves = list("AGDEF")
    got = student.call("play_interface", 2, True, moves)
    assert got["over"] and not got["left"], (
        f"GameInterface(playable_games['h'], ...).play() on side 2 with the moves "
        f"{' '.join(moves)} stopped after {' '.join(got['played']) or 'no move'} with the game "
        f"{'over' if got['over'] else 'not over'}; the game ends after F (p1 holds 5 of the "
        "9 ley-lines)")


@pytest.mark.public
@pytest.mark.parametrize("side", [1, 2, 3, 4, 5])
def test_board_empty(student, side):
    check_boards(student, side, True, [])


@pytest.mark.public
@pytest.mark.parametrize("move", ["A", "B", "C"])
def test_board_side_1_first_move(student, move):
    check_boards(student, 1, True, [move])


@pytest.mark.public
def test_board_side_2_spec_game(student):
    check_boards(student, 2, True, "AGDEF")


@pytest.mark.public
def test_board_side_3_spec_position(student):
    check_boards(student, 3, False, "KACBFEGDI")


@pytest.mark.parametrize("game", RANDOM_GAMES,
                         ids=[f"side{g['side']}-{i}" for i, g in enumerate(RANDOM_GAMES)])
def test_board_random_game(student, game):
    check_boards(student, game["side"], game["p1_starts"], game["moves"])


def test_board_markers_of_both_players(student):
    """Every ley-line claimed, on the largest board: each marker must sit in its own place."""
    side, moves = _all_markers_claimed()
    check_boards(student, side, True, moves)


def _all_markers_claimed() -> tuple[int, list[str]]:
    for game in generate.games(seed=5, count=40, sides=(5,)):
        pos = oracle.replay(5, game["p1_starts"], game["moves"])
        if pos.p1_lines and pos.p2_lines and game["p1_starts"]:
            return 5, game["moves"]
    raise LookupError("no side-5 game with lines for both players")  # a pack bug
