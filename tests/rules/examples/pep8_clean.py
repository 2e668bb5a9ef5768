"""A tidy module: pycodestyle has nothing to say about it."""


def over(board, player):
    """Whether player has won, or the board is full."""
    return (board.winner(player) or
            board.full())


class Counter:
    """Counts up."""

    def __init__(self):
        self.value = 0
