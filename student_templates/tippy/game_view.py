class GameView:
    """A game view for a human and a computer playing a two-player game.

    state: GameState -- the current state of the game
    strategy: Strategy -- the computer's way of choosing its moves
    """

    def __init__(self, state_class, strategy_class):
        """Set up a game of state_class in which the computer plays with
        strategy_class, after asking who moves first.

        state_class: class -- a subclass of GameState
        strategy_class: class -- a subclass of Strategy
        """
        answer = input('Type c if you wish the computer to play first ')
        if answer == 'c':
            p = 'p2'
        else:
            p = 'p1'
        self.state = state_class(p, interactive=True)
        self.strategy = strategy_class(interactive=True)

    def play(self):
        """Play the game until no move is left, then announce the result."""
        print(self.state.instructions)
        print(self.state)
        print()
        while self.state.possible_next_moves():
            if self.state.next_player == 'p1':
                m = self.state.get_move()
                new_state = self.state.apply_move(m)
                while new_state is None:
                    print('Illegal move: {}'.format(m))
                    print('Please try again.')
                    print(self.state.instructions)
                    print(self.state)
                    m = self.state.get_move()
                    new_state = self.state.apply_move(m)
                print('You choose: {}'.format(m))
            else:
                m = self.strategy.suggest_move(self.state)
                new_state = self.state.apply_move(m)
                print('The computer chooses: {}'.format(m))
            self.state = new_state
            print('New game state: ', self.state)
            print()
        if self.state.winner('p2'):
            print('Beat ya!')
        elif self.state.winner('p1'):
            print('Congrats -- you won!!')
        else:
            print('We tied...')


if __name__ == '__main__':
    from subtract_square_state import SubtractSquareState
    from strategy_random import StrategyRandom
    game_state = {'s': SubtractSquareState}
    strategy = {'r': StrategyRandom}
    g = ''
    while g not in game_state:
        g = input('s to play Subtract Square, ')
    s = ''
    while s not in strategy:
        s = input('r for random strategy for computer: ')
    GameView(game_state[g], strategy[s]).play()
