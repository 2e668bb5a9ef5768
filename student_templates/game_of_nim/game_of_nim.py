"""Programming project 2: the Game of Nim.

Names (everyone in your group):

Fill in the class below so that play_nim.py can play the game with alpha-beta search.
Rules: players take turns removing at least one object from a single row; the player who
removes the last object LOSES. A state's board is a list of row sizes, e.g. [5, 3, 1]; a move
is a 2-tuple (r, n): remove n objects from row r (rows counted from 0).
"""

from games import *


class GameOfNim(Game):
    """The Game of Nim. MAX moves first."""

    def __init__(self, board):
        """Build the initial GameState (to_move, utility, board, moves) from ``board``.

        Its moves are all the legal moves, row by row and fewest objects first: for the board
        [0, 2, 3, 1] they are [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 1)].
        """
        raise NotImplementedError("build self.initial")

    def actions(self, state):
        """Return the list of legal moves in ``state``."""
        raise NotImplementedError

    def result(self, state, move):
        """Return the NEW state after the player to move plays ``move`` (assume it is legal).

        Do not change ``state`` itself: the search still needs it. The other player moves next.
        """
        raise NotImplementedError

    def terminal_test(self, state):
        """Return True if the game is over in ``state``."""
        raise NotImplementedError

    def utility(self, state, player):
        """In the final state ``state``: return +1 if MAX wins, -1 if MIN wins."""
        raise NotImplementedError

    def display(self, state):
        """Print the board (used by play_nim.py and query_player)."""
        print("board:", state.board)


if __name__ == "__main__":
    nim = GameOfNim([0, 5, 3, 1])
    print(nim.initial.board)  # must be [0, 5, 3, 1]
    print(nim.initial.moves)  # must be [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 1), ...]
    print(nim.result(nim.initial, (1, 3)))
