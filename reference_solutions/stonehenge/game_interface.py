"""Play a game, choosing the game and each player's strategy by key.

playable_games maps a key to a Game subclass; usable_strategies maps a key to
a strategy (a function taking a game and returning a move).
Add 'h' for your Stonehenge game, and 'mr' and 'mi' for your recursive and
iterative minimax strategies: edit only the two mappings and the imports.

You do not need to run python_ta on this file.
"""
from game import Game
from subtract_square_game import SubtractSquareGame
from stonehenge import StonehengeGame
from strategy import (interactive_strategy, recursive_minimax_strategy,
                      iterative_minimax_strategy)

playable_games = {'s': SubtractSquareGame, 'h': StonehengeGame}
usable_strategies = {'i': interactive_strategy,
                     'mr': recursive_minimax_strategy,
                     'mi': iterative_minimax_strategy}


class GameInterface:
    """A game in progress, with a strategy for each player.

    game - the game being played
    p1_strategy - how player 1 picks a move
    p2_strategy - how player 2 picks a move
    """
    game: Game

    def __init__(self, game: type, p1_strategy: object,
                 p2_strategy: object) -> None:
        """Start a game of class game between the two strategies."""
        first_player = input("Type y if player 1 is to make the first move: ")
        self.game = game(first_player.strip().lower() == 'y')
        self.p1_strategy = p1_strategy
        self.p2_strategy = p2_strategy

    def play(self) -> None:
        """Play the game to its end, showing each move and state.

        An invalid move is asked for again.
        """
        print(self.game.get_instructions())
        print(self.game.current_state)
        while not self.game.is_over(self.game.current_state):
            state = self.game.current_state
            print("The current available moves are:")
            for possible in state.get_possible_moves():
                print(possible)
            player = state.get_current_player_name()
            if player == 'p1':
                strategy = self.p1_strategy
            else:
                strategy = self.p2_strategy
            move = strategy(self.game)
            while not state.is_valid_move(move):
                move = strategy(self.game)
            self.game.current_state = state.make_move(move)
            print("{} made the move {}. The game's state is now:".format(
                player, move))
            print(self.game.current_state)
        if self.game.is_winner('p1'):
            print("Player 1 is the winner!")
        elif self.game.is_winner('p2'):
            print("Player 2 is the winner!")
        else:
            print("It's a tie!")


if __name__ == "__main__":
    game_key = ''
    while game_key not in playable_games:
        game_key = input("Choose a game ({}): ".format(
            ", ".join(playable_games))).strip()
    strategy_keys = []
    for number in (1, 2):
        strategy_key = ''
        while strategy_key not in usable_strategies:
            strategy_key = input("Choose player {}'s strategy ({}): ".format(
                number, ", ".join(usable_strategies))).strip()
        strategy_keys.append(strategy_key)
    GameInterface(playable_games[game_key],
                  usable_strategies[strategy_keys[0]],
                  usable_strategies[strategy_keys[1]]).play()
