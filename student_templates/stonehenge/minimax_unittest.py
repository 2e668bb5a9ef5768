"""Unit tests for your minimax strategies: run them with
    python3 -m unittest minimax_unittest
beside your files. Both strategies are reached through
game_interface.usable_strategies['mr'] and ['mi'].
"""
import builtins
import unittest

from game_interface import playable_games, usable_strategies


def new_game(key: str, answer: int, p1_starts: bool = True,
             moves: str = '') -> object:
    """Return the game playable_games[key], whose constructor is answered
    with answer, after the given Stonehenge moves."""
    saved = builtins.input
    builtins.input = lambda prompt='': str(answer)
    try:
        game = playable_games[key](p1_starts)
    finally:
        builtins.input = saved
    for letter in moves:
        game.current_state = game.current_state.make_move(
            game.str_to_move(letter))
    return game


class MinimaxCases:
    """The same cases for both strategies (key set by each subclass)."""
    key = ''

    def strategy(self, game: object) -> object:
        """Return the move this strategy picks in game."""
        return usable_strategies[self.key](game)

    def test_subtract_square_4(self) -> None:
        self.assertEqual(self.strategy(new_game('s', 4)), 4)

    def test_subtract_square_18(self) -> None:
        self.assertIn(self.strategy(new_game('s', 18)), [1, 16])

    def test_stonehenge_only_best_move(self) -> None:
        game = new_game('h', 3, False, 'KACBFEGDI')
        self.assertEqual(self.strategy(game), game.str_to_move('H'))

    def test_stonehenge_side_2(self) -> None:
        game = new_game('h', 2, True, 'AFD')
        self.assertEqual(self.strategy(game), game.str_to_move('E'))

    def test_current_state_unchanged(self) -> None:
        game = new_game('h', 2, True, 'AFD')
        before = repr(game.current_state)
        self.strategy(game)
        self.assertEqual(repr(game.current_state), before)


class TestRecursiveMinimax(MinimaxCases, unittest.TestCase):
    """usable_strategies['mr']"""
    key = 'mr'


class TestIterativeMinimax(MinimaxCases, unittest.TestCase):
    """usable_strategies['mi']"""
    key = 'mi'


if __name__ == '__main__':
    unittest.main()
