"""Strategies: functions that take a game and return a move to make in its
current state.

Add your recursive_minimax_strategy and iterative_minimax_strategy here, and
name them in game_interface.usable_strategies.
"""
from game import Game


def interactive_strategy(game: Game) -> object:
    """Return the move that the player types in."""
    move = input("Enter a move: ")
    return game.str_to_move(move)


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
