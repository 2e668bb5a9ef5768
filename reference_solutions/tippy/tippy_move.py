"""A move in the game of tippy."""
from move import Move


class TippyMove(Move):
    """Put the mark of the player to move in one square of the grid.

    row: int -- the row of the square, 0 at the top
    column: int -- the column of the square, 0 at the left
    """

    def __init__(self, row, column):
        """Create a move that marks the square at (row, column).

        >>> TippyMove(1, 2).column
        2
        """
        self.row = row
        self.column = column

    def __repr__(self):
        """Return a representation of this move.

        >>> TippyMove(1, 2)
        TippyMove(1, 2)
        """
        return 'TippyMove({}, {})'.format(self.row, self.column)

    def __str__(self):
        """Return a description of this move for the user.

        >>> print(TippyMove(1, 2))
        Mark row 1, column 2
        """
        return 'Mark row {}, column {}'.format(self.row, self.column)

    def __eq__(self, other):
        """Return True if other is a TippyMove marking the same square.

        >>> TippyMove(1, 2) == TippyMove(1, 2)
        True
        >>> TippyMove(1, 2) == TippyMove(2, 1)
        False
        """
        mine = (type(self), self.row, self.column)
        return mine == (type(other), other.row, other.column)

    def __hash__(self):
        """Return a hash consistent with __eq__."""
        return hash((self.row, self.column))
