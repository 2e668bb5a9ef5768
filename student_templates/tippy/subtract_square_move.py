"""A move in the game of subtract square."""
from move import Move


class SubtractSquareMove(Move):
    """Remove a positive square amount from the current total.

    amount: int -- how much to remove
    """

    def __init__(self, amount):
        """Create a move that removes amount from the total.

        >>> SubtractSquareMove(4).amount
        4
        """
        self.amount = amount

    def __repr__(self):
        """Return a representation of this move.

        >>> repr(SubtractSquareMove(4))
        'SubtractSquareMove(4)'
        """
        return 'SubtractSquareMove({})'.format(self.amount)

    def __str__(self):
        """Return a description of this move for the user.

        >>> str(SubtractSquareMove(4))
        'Remove 4'
        """
        return 'Remove {}'.format(self.amount)

    def __eq__(self, other):
        """Return True if other is a move of this kind removing as much.

        >>> SubtractSquareMove(4) == SubtractSquareMove(4)
        True
        >>> SubtractSquareMove(4) == SubtractSquareMove(1)
        False
        """
        return type(self) is type(other) and self.amount == other.amount

    def __hash__(self):
        """Return a hash consistent with __eq__."""
        return hash(self.amount)
