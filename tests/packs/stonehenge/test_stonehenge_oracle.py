"""The stonehenge oracle agrees with the spec and with a naive solver written independently."""

from __future__ import annotations

import random

import pytest
from stonehenge_boards import SIDE_1, SIDE_2, SIDE_2_AGDEF, SIDE_3, SIDE_3_ONLY_H

from graders.packs.stonehenge import generate, oracle


@pytest.mark.parametrize(("side", "cells"), [(1, 3), (2, 7), (3, 12), (4, 18), (5, 25)])
def test_geometry_counts(side, cells):
    geo = oracle.geometry(side)
    assert len(geo.letters) == cells == (side * side + 5 * side) // 2
    assert len(geo.lines) == 3 * (side + 1)
    for i in range(cells):  # every cell lies on one row and one diagonal of each family
        assert sum(i in members for _, members in geo.lines) == 3


def test_side_2_lines_by_hand():
    lines = {name: "".join("ABCDEFG"[i] for i in members)
             for name, members in oracle.geometry(2).lines}
    assert lines == {"h0": "AB", "h1": "CDE", "h2": "FG", "dl0": "AC", "dl1": "BDF",
                     "dl2": "EG", "dr0": "BE", "dr1": "ADG", "dr2": "CF"}


@pytest.mark.parametrize(("side", "text"), [(1, SIDE_1), (2, SIDE_2), (3, SIDE_3)])
def test_empty_boards_match_spec(side, text):
    assert oracle.render(oracle.start(side)) == text


def test_spec_positions():
    finished = oracle.replay(2, True, "AGDEF")
    assert oracle.render(finished) == SIDE_2_AGDEF
    assert oracle.winner(finished) == "p1" and oracle.moves(finished) == []
    assert oracle.render(oracle.replay(3, False, "KACBFEGDI")) == SIDE_3_ONLY_H
    assert oracle.best_moves(oracle.replay(3, False, "KACBFEGDI")) == ["H"]
    assert oracle.best_moves(oracle.replay(2, True, "AFD")) == ["E"]


def test_claimed_line_never_changes_hands():
    # p2 takes G first: half of row F-G, so h2 is p2's; p1's F later cannot take it back.
    pos = oracle.replay(2, True, "AGD")
    h2 = oracle.geometry(2).line_index("h2")
    assert pos.p2_lines >> h2 & 1
    after = oracle.play(pos, "E")
    assert oracle.play(after, "F").p2_lines >> h2 & 1


def test_at_least_half_captures():
    pos = oracle.replay(2, True, "C")  # one of h1's three cells: less than half
    assert not pos.p1_lines >> oracle.geometry(2).line_index("h1") & 1
    pos = oracle.replay(2, True, "A")  # one of h0's two cells: exactly half
    assert pos.p1_lines >> oracle.geometry(2).line_index("h0") & 1


def test_slip_more_than_half_captures_only_past_half():
    """The capture rule's slip `capture-more-than-half`: exactly half is not enough."""
    slip = oracle.SLIPS["capture-more-than-half"]
    h0 = oracle.geometry(2).line_index("h0")
    assert not oracle.replay(2, True, "A", slip).p1_lines >> h0 & 1
    assert oracle.replay(2, True, "ACB", slip).p1_lines >> h0 & 1  # both cells of A-B
    assert oracle.winner(oracle.replay(1, True, "A", slip)) == ""  # side 1 plays on
    # the same moves under the slip's rules never cost a legal handout move before the end
    assert len(oracle.trace(2, True, "AGDEF", slip)) == 6


def test_slip_lines_change_hands_moves_a_line_to_the_mover():
    """The slip `line-changes-hands`: p1's F takes h2 from p2 after A G D E F."""
    slip = oracle.SLIPS["line-changes-hands"]
    h2 = oracle.geometry(2).line_index("h2")
    pos = oracle.replay(2, True, "AGDEF", slip)
    assert pos.p1_lines >> h2 & 1 and not pos.p2_lines >> h2 & 1
    assert oracle.replay(2, True, "AGDEF") != pos


def test_a_slips_game_may_end_before_the_moves_do():
    """Under a slip a game can be over sooner: its trace stops there, the handout's raises."""
    slip = oracle.SLIPS["line-changes-hands"]
    for game in generate.games(seed=148, count=40, sides=(3, 4)):
        positions = oracle.trace(game["side"], game["p1_starts"], game["moves"], slip)
        if len(positions) <= len(game["moves"]):
            assert oracle.winner(positions[-1])
            return
    pytest.fail("no generated game ends sooner under line-changes-hands")


def test_side_1_first_move_wins():
    for letter in "ABC":
        assert oracle.winner(oracle.replay(1, True, letter)) == "p1"


def test_tokens_follow_the_spec():
    rows = oracle.tokens(SIDE_2)
    assert rows == [["@", "@"], ["@", "A", "B", "@"], ["@", "C", "D", "E"],
                    ["@", "F", "G", "@"], ["@", "@"]]
    assert oracle.tokens(SIDE_2.replace("     ", "  ")) == rows
    assert oracle.tokens(SIDE_2 + "\n\n") == rows


def _naive_score(pos):
    """Plain negamax over the oracle's rules (no memo, no bitmask tricks)."""
    if oracle.winner(pos):
        return oracle.WIN if oracle.winner(pos) == pos.player else oracle.LOSE
    return max(-_naive_score(oracle.play(pos, m)) for m in oracle.moves(pos))


def _naive_size(pos):
    return 1 + sum(_naive_size(oracle.play(pos, m)) for m in oracle.moves(pos))


def test_solver_and_tree_size_match_naive_versions():
    rng = random.Random(7)
    checked = 0
    for side in (2, 3, 4):
        for _ in range(8):
            p1_starts = rng.random() < 0.5
            game = generate.random_game(rng, side, p1_starts)
            cells = len(oracle.geometry(side).letters)
            pos = next(p for p in oracle.trace(side, p1_starts, game)
                       if cells - (p.p1_cells | p.p2_cells).bit_count() <= 6)
            if oracle.moves(pos):
                assert oracle.solve(pos) == _naive_score(pos)
                assert oracle.tree_size(pos) == _naive_size(pos)
                checked += 1
    assert checked > 10


def test_full_boards_solved():
    assert oracle.solve(oracle.start(2)) == oracle.WIN
    assert oracle.solve(oracle.start(3)) == oracle.WIN
    assert oracle.tree_size(oracle.start(1)) == 4


def test_rough_outcome_cases():
    assert oracle.rough_outcome(oracle.replay(2, True, "AGDEF")) == oracle.LOSE
    assert oracle.rough_outcome(oracle.start(1)) == oracle.WIN
    lost = [p for p in _positions(3) if oracle.rough_outcome(p) == oracle.LOSE
            and oracle.moves(p)]
    assert lost, "some generated position must have every move losing at once"
    for pos in lost:
        for letter in oracle.moves(pos):
            child = oracle.play(pos, letter)
            assert any(oracle.winner(oracle.play(child, m)) == child.player
                       for m in oracle.moves(child))


def _positions(side):
    rng = random.Random(11)
    out = []
    for _ in range(40):
        out.extend(oracle.trace(side, rng.random() < 0.5,
                                generate.random_game(rng, side, True)))
    return out


def test_generated_positions_are_discriminating_and_reproducible():
    first = generate.search_positions(3, 4)
    assert first == generate.search_positions(3, 4)
    for item in first:
        pos = oracle.replay(item["side"], item["p1_starts"], item["moves"])
        assert item["best"] == oracle.best_moves(pos)
        assert set(item["best"]) < set(oracle.moves(pos))
        assert item["tree"] <= 2000


def test_transpositions_reach_the_same_position():
    for pair in generate.transpositions(5, 3):
        a = oracle.replay(pair["side"], pair["p1_starts"], pair["first"])
        b = oracle.replay(pair["side"], pair["p1_starts"], pair["second"])
        assert a == b and pair["first"] != pair["second"]
