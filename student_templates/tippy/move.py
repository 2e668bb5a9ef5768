"""A move in a two-player game."""


class Move:
    """A move in a two-player game.

    This class is empty: each game's subclass says what its moves hold.
    """
