"""Subtract Square: the rules of the game and a minimax player.

Fill in every function as the handout says. Helper functions of your own are allowed;
imports are not.
"""


def moves(total):
    """The legal moves from total: the square numbers at most total, largest first."""
    raise NotImplementedError


def apply(total, amount):
    """The total left after removing amount, or None when amount is not a legal move."""
    raise NotImplementedError


def is_over(total):
    """True when the total is 0, False otherwise."""
    raise NotImplementedError


def winner(total, player):
    """The winner when the game is over and player is to move, None while it goes on."""
    raise NotImplementedError


def best_move(total):
    """The minimax choice of the player to move (None when the game is over)."""
    raise NotImplementedError
