"""A move in the game of tippy."""
from move import Move


class TippyMove(Move):
    """A move in tippy: the player to move puts a mark in one empty square.

    Say here which attributes a TippyMove has.
    """

    def __init__(self):
        """Create a new move.

        Add the parameters your moves need.
        """
        raise NotImplementedError('Write TippyMove')
