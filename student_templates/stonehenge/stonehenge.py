"""Stonehenge: players take turns claiming cells of a hexagonal board, and
capture the ley-lines through them.

Write StonehengeGame and StonehengeState here.
"""
from game import Game
from game_state import GameState


class StonehengeState(GameState):
    """The state of a game of Stonehenge: the board and whose turn it is."""

    def __init__(self, is_p1_turn: bool, side_length: int) -> None:
        """Make the empty board with the given side length (1 to 5)."""
        super().__init__(is_p1_turn)
        raise NotImplementedError("Write StonehengeState")


class StonehengeGame(Game):
    """A game of Stonehenge.

    current_state - the state of the game in progress
    """
    current_state: StonehengeState

    def __init__(self, p1_starts: bool) -> None:
        """Start a game, asking the player for the side length (ONE call to
        input)."""
        raise NotImplementedError("Write StonehengeGame")


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
