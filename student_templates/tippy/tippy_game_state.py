"""The state of a game of tippy."""
from game_state import GameState


class TippyGameState(GameState):
    """The state of a game of tippy on an n x n grid, n >= 3.

    Say here which attributes a TippyGameState has.
    """

    def __init__(self, p, interactive=False):
        """Create a new game of tippy with player p to move first.

        When interactive, ask the user for the size of the grid.
        """
        GameState.__init__(self, p)
        raise NotImplementedError('Write TippyGameState')
