"""My game menu.

It plays tippy now, too.
"""
import random


class Menu:
    """Plays one game against the computer (any game of the framework)."""

    def __init__(self, game, strategy):
        self.game = game
        self.strategy = strategy

    def play(self):
        # the human moves first; the computer answers

        while not self.game.over:  # until someone wins
            move = input('Your move: ')
            self.game = self.game.apply(move)
        print('Game over')


if __name__ == '__main__':
    from subtract_square_state import SubtractSquareState
    from strategy_random import StrategyRandom
    from tippy_game_state import TippyGameState
    from strategy_minimax import StrategyMinimax
    games = {'s': SubtractSquareState, 't': TippyGameState}
    strategies = {'r': StrategyRandom, 'm': StrategyMinimax}
    g = input('s to play Subtract Square, '
              't to play Tippy: ')
    s = input('r for random strategy for computer, m for minimax: ')
    Menu(games[g], strategies[s]).play()
