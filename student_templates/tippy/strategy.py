"""A way of choosing moves in a two-player game."""


class Strategy:
    """A way of choosing the next move from a GameState.

    interactive: bool -- True if the strategy may ask the user for settings
    """

    def __init__(self, interactive=False):
        """Create a new strategy.

        interactive: bool -- True if the user should be asked for settings
        """
        self.interactive = interactive

    def suggest_move(self, state):
        """Return a legal move for state.next_player from state."""
        raise NotImplementedError('Implement suggest_move in a subclass')
