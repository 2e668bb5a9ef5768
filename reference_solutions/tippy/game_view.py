"""Play a two-player game against the computer, in text."""
from subtract_square_state import SubtractSquareState
from strategy_random import StrategyRandom
from tippy_game_state import TippyGameState
from strategy_minimax import StrategyMinimax


class GameView:
    """A text view of a game played by a human (p1) and the computer (p2).

    state: GameState -- the game in progress
    strategy: Strategy -- how the computer chooses its moves
    """

    def __init__(self, state_cls, strategy_cls):
        """Ask who moves first, then set up a game of state_cls with the
        computer playing strategy_cls.

        state_cls: type -- a subclass of GameState
        strategy_cls: type -- a subclass of Strategy
        """
        answer = input('Type c if you wish the computer to play first ')
        first = 'p2' if answer == 'c' else 'p1'
        self.state = state_cls(first, interactive=True)
        self.strategy = strategy_cls(interactive=True)

    def play(self):
        """Play the game until it is over, then say who won."""
        print(self.state.instructions)
        print(self.state)
        print()
        while not self.state.over:
            if self.state.next_player == 'p1':
                self.state = self._human_move()
            else:
                move = self.strategy.suggest_move(self.state)
                print('The computer plays: {}'.format(move))
                self.state = self.state.apply_move(move)
            print('New game state: ')
            print(self.state)
            print()
        if self.state.winner('p2'):
            print('Beat ya!')
        elif self.state.winner('p1'):
            print('Congrats -- you won!!')
        else:
            print('We tied...')

    def _human_move(self):
        """Ask the human for moves until one is legal; return the new state."""
        move = self.state.get_move()
        new_state = self.state.apply_move(move)
        while new_state is None:
            print('Illegal move: {}'.format(move))
            move = self.state.get_move()
            new_state = self.state.apply_move(move)
        return new_state


if __name__ == '__main__':
    game_menu = {'s': SubtractSquareState, 't': TippyGameState}
    strategy_menu = {'r': StrategyRandom, 'm': StrategyMinimax}
    game = ''
    while game not in game_menu:
        game = input('s to play Subtract Square, t to play Tippy: ')
    strategy = ''
    while strategy not in strategy_menu:
        strategy = input('r for a random strategy for the computer, '
                         'm for minimax: ')
    GameView(game_menu[game], strategy_menu[strategy]).play()
