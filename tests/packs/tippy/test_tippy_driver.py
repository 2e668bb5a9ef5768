"""The tippy driver, run in process on the reference and on differently written variants."""

from __future__ import annotations

import pytest

from graders.pack import get_pack
from graders.packs.tippy import checks, generate, oracle
from tests.in_process import driver_on, workspace

PACK = get_pack("tippy")

STR_OF_REFERENCE = "        lines = ['   ' + ' '.join(str(c) for c in range(self.size))]"

# Variants a student might write; the driver must read each of them the same way.
VARIANTS = {
    "str hides the board": {"tippy_game_state.py": [(
        "        return '\\n'.join(lines)", "        return 'a game of tippy'")]},
    "str is transposed and 1-based": {"tippy_game_state.py": [(
        STR_OF_REFERENCE,
        "        lines = ['next: ' + self.next_player]\n"
        "        for c in range(self.size):\n"
        "            lines.append(str(c + 1) + ' ' + ' '.join(\n"
        "                self.board[r][c].replace(' ', '.') for r in range(self.size)))\n"
        "        return '\\n'.join(lines)\n"
        "        lines = []")]},
    "str starts with a move counter that grows a digit": {"tippy_game_state.py": [(
        STR_OF_REFERENCE,
        "        lines = ['moves: {}'.format(sum(m != ' ' for row in self.board for m in row))]\n"
        "        lines.append('   ' + ' '.join(str(c) for c in range(self.size)))")]},
    "apply_move mutates and returns self": {"tippy_game_state.py": [(
        "        board = [row[:] for row in self.board]\n"
        "        board[move.row][move.column] = MARKS[self.next_player]\n"
        "        return TippyGameState(self.opponent(), size=self.size, board=board)",
        "        self.board[move.row][move.column] = MARKS[self.next_player]\n"
        "        self.next_player = self.opponent()\n"
        "        self.over = len(self.possible_next_moves()) == 0 or self.winner('p1') or"
        " self.winner('p2')\n"
        "        return self")]},
    "moves compare by identity": {"tippy_move.py": [
        ("    def __eq__(self, other):", "    def _eq(self, other):"),
        ("    def __hash__(self):", "    def _hash(self):"),
        ("    def __repr__(self):", "    def _repr(self):")]},
    "moves keep letters only: squares found by their effect on str": {"tippy_move.py": [
        ("        self.row = row\n        self.column = column",
         "        self.code = chr(97 + row) + chr(97 + column)\n\n"
         "    row = property(lambda self: ord(self.code[0]) - 97)\n"
         "    column = property(lambda self: ord(self.code[1]) - 97)"),
        ("        return 'TippyMove({}, {})'.format(self.row, self.column)",
         "        return 'TippyMove({!r})'.format(self.code)"),
        ("        return 'Mark row {}, column {}'.format(self.row, self.column)",
         "        return 'Mark ' + self.code")]},
}


@pytest.fixture(scope="module")
def ref_driver(tmp_path_factory):
    folder = workspace(PACK, tmp_path_factory.mktemp("reference"), PACK.reference_dir)
    with driver_on(PACK, folder) as driver:
        yield driver


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_play_many_reads_every_tippy_win(ref_driver, n):
    for winner in ("p1", "p2"):
        games = [cells for _, cells in generate.tippy_games(n, winner)]
        for cells, result in zip(games, ref_driver.play_many(n, games), strict=True):
            assert result["board"] == oracle.replay(n, cells)
            assert result["over"] is True and result["stopped"] is None
            assert result["winner"] == {"p1": winner == "p1", "p2": winner == "p2"}
            assert result["outcome"] == -1.0 and "moves" not in result


def test_play_every_step_matches_the_oracle(ref_driver):
    cells = generate.random_game(4, 3)
    result = ref_driver.play(4, cells, every_step=True)
    assert len(result["steps"]) == len(cells)
    for i, step in enumerate(result["steps"]):
        board = oracle.replay(4, cells[:i])
        assert step["board"] == board
        assert step["moves"] == [list(c) for c in oracle.legal_moves(board)]
        assert step["next_player"] == ("p1" if i % 2 == 0 else "p2")


def test_play_stops_at_a_square_no_move_marks(ref_driver):
    result = ref_driver.play(3, [[0, 0], [0, 0]])
    assert result["stopped"]["at"] == 1 and result["final"]["board"] == ["X..", "...", "..."]


def test_moves_are_read_from_their_attributes_rows_first(ref_driver):
    facts = ref_driver.move_facts(3)
    assert facts["how"] == "number 1 of its attribute row and number 1 of its attribute column"
    assert facts["texts"][1] == ["TippyMove(0, 1)", "Mark row 0, column 1"]


def test_apply_effects_and_replay_taken_on_the_reference(ref_driver):
    effects = ref_driver.apply_effects(3, [[1, 1]])
    assert len(effects["checks"]) == 8
    assert all(c["state_unchanged"] and not c["returned_self"] and c["result_right"]
               for c in effects["checks"])
    taken = ref_driver.replay_taken(4, [[0, 0], [1, 1], [2, 2]])
    assert [r["returned_none"] for r in taken["results"]] == [True, True, True]


def test_minimax_ops_on_the_reference(ref_driver):
    for position in generate.minimax_positions(4, 6, 3, seed=3):
        assert ref_driver.minimax_move(4, position["cells"])["cell"] in position["best"]
    win = generate.minimax_positions(3, 7, 1, seed=3, value=1)[0]
    for game in ref_driver.minimax_vs_random(3, win["cells"], [1, 2, 3]):
        assert game["why"] is None
        assert oracle.status(oracle.replay(3, win["cells"] + game["cells"])) == win["player"]


def test_rough_outcomes_are_plain_numbers(ref_driver):
    values = ref_driver.rough_outcomes(3, [[], [[0, 0], [2, 0], [0, 1], [2, 2], [1, 1], [0, 2]]])
    assert values == [0.0, 1.0]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_variants_are_read_like_the_reference(load_driver, variant):
    driver = load_driver(PACK.reference_dir, edits=VARIANTS[variant])
    games = [cells for _, cells in generate.tippy_games(4)] + [generate.tie_game(4)]
    results = driver.play_many(4, games)
    effects = driver.apply_effects(3, [[1, 1]])
    for cells, result in zip(games, results, strict=True):
        assert result["board"] == oracle.replay(4, cells) and result["stopped"] is None
        assert result["over"] is True
        assert result["winner"] == checks.summary(4, cells)["winner"]
    mutates = variant.startswith("apply_move mutates")
    assert effects["checks"][0]["state_unchanged"] is not mutates
    assert effects["checks"][0]["returned_self"] is mutates


def test_a_do_nothing_game_reaches_no_position(load_driver):
    driver = load_driver(PACK.reference_dir, edits={"tippy_game_state.py": [
        ("        return TippyGameState(self.opponent(), size=self.size, board=board)",
         "        return self")]})
    result = driver.play(3, [[0, 0], [1, 1]])
    assert result["stopped"] == {"at": 0, "cell": [0, 0], "why": "after apply_move(TippyMove(0, "
                                 "0)) the square is still among the possible next moves"}


def test_a_game_that_ignores_the_size_prompt_is_reported(load_driver):
    driver = load_driver(PACK.reference_dir, edits={"tippy_game_state.py": [
        ("            size = _ask_size()", "            pass")]})
    with pytest.raises(RuntimeError, match="offers 9 moves, one per square of a 3 x 3 grid, "
                                           "not 16: the game must be as large"):
        driver.play(4, [])


def test_the_bare_template_fails_with_its_own_message(load_driver):
    with pytest.raises(NotImplementedError, match="Write"):
        load_driver(PACK.templates_dir).play(3, [])


def _listing(body: str) -> tuple[str, str]:
    """An edit of the reference whose possible_next_moves() runs ``body`` on its list."""
    return ("    def possible_next_moves(self):",
            "    _made = ()\n\n    def possible_next_moves(self):\n"
            f"        moves = self._listed()\n{body}        return moves\n\n"
            "    def _listed(self):")


def test_reuse_is_asked_two_moves_later_of_the_same_player(ref_driver, load_driver):
    """A move stands for its square whatever state it came from; it may carry its player
    (GameView never applies one on the other player's turn), but not the state it came from."""
    assert ref_driver.move_facts(4)["not_reusable"] == []
    legal = "        if self.over or not isinstance(move, TippyMove):"
    bound = load_driver(PACK.reference_dir, edits={"tippy_game_state.py": [
        _listing("        self._made = moves\n"),
        (legal, "        if self.over or not any(move is mine for mine in self._made):")]})
    not_reusable = bound.move_facts(4)["not_reusable"]
    assert len(not_reusable) == 14 and not_reusable[0]["took"] is None
    with_player = load_driver(PACK.reference_dir, edits={"tippy_game_state.py": [
        _listing("        for move in moves:\n            move.player = self.next_player\n"),
        (legal, "        if self.over or move.player != self.next_player:")]})
    assert with_player.move_facts(4)["not_reusable"] == []
