"""Play a game, choosing the game and each player's strategy by key.

playable_games maps a key to a Game subclass; usable_strategies maps a key to
a strategy (a function taking a game and returning a move).
Add 'h' for your Stonehenge game, and 'mr' and 'mi' for your recursive and
iterative minimax strategies.
"""
from game import Game
from subtract_square_game import SubtractSquareGame
from strategy import interactive_strategy

playable_games = {'s': SubtractSquareGame}
usable_strategies = {'i': interactive_strategy}


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
        """Play the game to its end, showing each move and state."""
        print(self.game.get_instructions())
        print(self.game.current_state)
        while not self.game.is_over(self.game.current_state):
            state = self.game.current_state
            print("The current available moves are:")
            print(state.get_possible_moves())
            player = state.get_current_player_name()
            if player == 'p1':
                move = self.p1_strategy(self.game)
            else:
                move = self.p2_strategy(self.game)
            if not state.is_valid_move(move):
                print("That is an invalid move.")
                continue
            self.game.current_state = state.make_move(move)
            print("{} made the move {}. The game's state is now:".format(
                player, move))
            print(self.game.current_state)
        print(self._result())

    def _result(self) -> str:
        """Return the line that announces the end of the game."""
        if self.game.is_winner('p1'):
            return "Player 1 is the winner!"
        if self.game.is_winner('p2'):
            return "Player 2 is the winner!"
        return "It's a tie!"


def choose(prompt: str, options: dict) -> object:
    """Return the value of options whose key the player types in."""
    key = ''
    while key not in options:
        key = input("{} ({}): ".format(prompt, ", ".join(options))).strip()
    return options[key]


def main() -> None:
    """Ask for a game and two strategies, then play that game."""
    game = choose("Choose a game", playable_games)
    p1_strategy = choose("Choose player 1's strategy", usable_strategies)
    p2_strategy = choose("Choose player 2's strategy", usable_strategies)
    GameInterface(game, p1_strategy, p2_strategy).play()


if __name__ == "__main__":
    main()
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
