"""A game menu, as a starter hands it out."""
import random


class Menu:
    """Plays one game against the computer."""

    def __init__(self, game, strategy):
        self.game = game
        self.strategy = strategy

    def play(self):
        # the human moves first
        while not self.game.over:
            move = input('Your move: ')
            self.game = self.game.apply(move)
        print('Game over')


if __name__ == '__main__':
    from subtract_square_state import SubtractSquareState
    from strategy_random import StrategyRandom
    from tippy_game_state import TippyGameState
    from strategy_minimax import StrategyMinimax
    games = {'s': SubtractSquareState}
    games['t'] = TippyGameState
    strategies = {'r': StrategyRandom}
    strategies['m'] = StrategyMinimax
    print('Games:')
    for key in games:
        print(key, games[key].__name__)
    print()
    print('Strategies:')
    for key in strategies:
        print(key, strategies[key].__name__)
    print()
    g = input('s to play Subtract Square: ')
    s = input('r for random strategy for computer: ')
    Menu(games[g], strategies[s]).play()
