"""Subtract Square: the rules of the game and a minimax player (reference solution)."""


def moves(total):
    """The legal moves from total: the square numbers at most total, largest first."""
    squares = []
    root = 1
    while root * root <= total:
        squares.append(root * root)
        root += 1
    return squares[::-1]


def apply(total, amount):
    """The total left after removing amount, or None when amount is not a legal move."""
    if amount not in moves(total):
        return None
    return total - amount


def is_over(total):
    """True when the total is 0, False otherwise."""
    return total == 0


def winner(total, player):
    """The winner when the game is over and player is to move, None while it goes on."""
    if not is_over(total):
        return None
    return "p2" if player == "p1" else "p1"


def wins(total):
    """Minimax: whether the player to move from total wins when both play perfectly."""
    return any(not wins(apply(total, amount)) for amount in moves(total))


def best_move(total):
    """The minimax choice of the player to move (None when the game is over)."""
    options = moves(total)
    if not options:
        return None
    for amount in options:
        if not wins(apply(total, amount)):
            return amount
    return options[0]
