"""Unit tests for your Stonehenge game: run them with
    python3 -m unittest stonehenge_unittest
beside your files. Boards are compared token by token (markers, cells and
their order), so spacing and the connecting lines are up to you.
"""
import builtins
import unittest

from game_interface import playable_games


def tokens(board: str) -> list:
    """Return the tokens of each line of board that holds any, keeping only
    tokens made of letters, digits or '@'."""
    rows = []
    for line in str(board).splitlines():
        row = [token for token in line.split()
               if all(char.isalnum() or char == '@' for char in token)]
        if row:
            rows.append(row)
    return rows


def new_game(side: int, p1_starts: bool = True, moves: str = '') -> object:
    """Return a Stonehenge game of the given side length after moves; the
    game's constructor must ask for the side length with ONE input()."""
    calls = []

    def fake_input(prompt: str = '') -> str:
        calls.append(prompt)
        return str(side)
    saved = builtins.input
    builtins.input = fake_input
    try:
        game = playable_games['h'](p1_starts)
    finally:
        builtins.input = saved
    if len(calls) != 1:
        raise AssertionError('the constructor called input() {} times, '
                             'not once'.format(len(calls)))
    for letter in moves:
        game.current_state = game.current_state.make_move(
            game.str_to_move(letter))
    return game


SIDE_1 = [['@', '@'], ['@', 'A', 'B'], ['@', 'C', '@'], ['@']]
SIDE_2_MOVES = [
    ('A', [['1', '@'], ['1', '1', 'B', '@'], ['@', 'C', 'D', 'E'],
           ['@', 'F', 'G', '@'], ['@', '@']]),
    ('G', [['1', '@'], ['1', '1', 'B', '2'], ['@', 'C', 'D', 'E'],
           ['2', 'F', '2', '@'], ['@', '@']]),
    ('D', [['1', '@'], ['1', '1', 'B', '2'], ['@', 'C', '1', 'E'],
           ['2', 'F', '2', '@'], ['@', '1']]),
    ('E', [['1', '@'], ['1', '1', 'B', '2'], ['@', 'C', '1', '2'],
           ['2', 'F', '2', '2'], ['@', '1']]),
    ('F', [['1', '1'], ['1', '1', 'B', '2'], ['@', 'C', '1', '2'],
           ['2', '1', '2', '2'], ['1', '1']]),
]


class TestGame(unittest.TestCase):
    """The game class, reached through game_interface.playable_games['h']."""

    def test_game_class(self) -> None:
        game = new_game(1)
        for method in ('get_instructions', 'is_over', 'is_winner',
                       'str_to_move'):
            self.assertTrue(callable(getattr(game, method)))
        self.assertTrue(hasattr(game, 'current_state'))

    def test_current_player(self) -> None:
        self.assertEqual(new_game(1, True).current_state
                         .get_current_player_name(), 'p1')
        self.assertEqual(new_game(1, False).current_state
                         .get_current_player_name(), 'p2')
        self.assertEqual(new_game(2, True, 'A').current_state
                         .get_current_player_name(), 'p2')

    def test_side_1_board(self) -> None:
        self.assertEqual(tokens(new_game(1).current_state), SIDE_1)

    def test_side_1_each_first_move(self) -> None:
        expected = {
            'A': [['1', '@'], ['1', '1', 'B'], ['@', 'C', '@'], ['1']],
            'B': [['@', '1'], ['1', 'A', '1'], ['@', 'C', '1'], ['@']],
            'C': [['@', '1'], ['@', 'A', 'B'], ['1', '1', '@'], ['1']],
        }
        for move, board in expected.items():
            game = new_game(1)
            state = game.current_state.make_move(game.str_to_move(move))
            self.assertEqual(tokens(state), board, move)

    def test_side_1_after_a_is_over(self) -> None:
        game = new_game(1, True, 'A')
        self.assertTrue(game.is_over(game.current_state))
        self.assertTrue(game.is_winner('p1'))
        self.assertFalse(game.is_winner('p2'))
        self.assertEqual(game.current_state.get_possible_moves(), [])

    def test_make_move_keeps_current_state(self) -> None:
        game = new_game(2)
        before = str(game.current_state)
        game.current_state.make_move(game.str_to_move('A'))
        self.assertEqual(str(game.current_state), before)

    def test_make_move_with_raw_string(self) -> None:
        state = new_game(2).current_state.make_move('A')
        self.assertEqual(tokens(state), SIDE_2_MOVES[0][1])

    def test_str_to_move(self) -> None:
        game = new_game(1)
        state = game.current_state
        self.assertIn(game.str_to_move('A'), state.get_possible_moves())
        self.assertFalse(state.is_valid_move(game.str_to_move('D')))

    def test_side_2_game(self) -> None:
        game = new_game(2)
        for move, board in SIDE_2_MOVES:
            self.assertFalse(game.is_over(game.current_state))
            game.current_state = game.current_state.make_move(
                game.str_to_move(move))
            self.assertEqual(tokens(game.current_state), board, move)
        self.assertTrue(game.is_over(game.current_state))
        self.assertTrue(game.is_winner('p1'))

    def test_repr(self) -> None:
        self.assertNotEqual(repr(new_game(2, True).current_state),
                            repr(new_game(2, False).current_state))
        self.assertEqual(repr(new_game(3, True, 'FCE').current_state),
                         repr(new_game(3, True, 'ECF').current_state))
        self.assertNotEqual(repr(new_game(3, True, 'FCE').current_state),
                            repr(new_game(3, True, 'FCA').current_state))

    def test_rough_outcome_in_range(self) -> None:
        """Any estimate will do while the game goes on: a number from LOSE
        (-1) to WIN (1), whole or fractional."""
        for side, moves in [(1, ''), (2, ''), (2, 'AGD'), (3, ''),
                            (3, 'FCE')]:
            value = new_game(side, True, moves).current_state.rough_outcome()
            self.assertIsInstance(value, (int, float), (side, moves))
            self.assertNotIsInstance(value, bool, (side, moves))
            self.assertTrue(-1 <= value <= 1, (side, moves, value))

    def test_rough_outcome_once_over(self) -> None:
        """Once the game is over, the player to move has lost: LOSE (-1)."""
        for side, p1_starts, moves in [(2, True, 'AGDEF'), (1, True, 'A'),
                                       (1, False, 'B')]:
            game = new_game(side, p1_starts, moves)
            self.assertTrue(game.is_over(game.current_state), moves)
            self.assertEqual(game.current_state.rough_outcome(), -1,
                             (side, p1_starts, moves))

if __name__ == '__main__':
    unittest.main()
