"""The state of a game of subtract square."""
import random

from game_state import GameState
from subtract_square_move import SubtractSquareMove


class SubtractSquareState(GameState):
    """A game of subtract square: players take turns removing a positive
    square from a total; whoever brings the total to 0 wins.

    current_total: int -- what is left to remove
    """

    def __init__(self, p, interactive=False, current_total=0):
        """Create a game with player p to move and current_total left.

        When interactive, the total is chosen at random up to a maximum
        the user types in.

        >>> SubtractSquareState('p1', current_total=17).current_total
        17
        """
        GameState.__init__(self, p)
        self.instructions = ('On your turn you may remove any positive square '
                             'number that is not more than the current total. '
                             'Whoever removes the last of the total wins.')
        if interactive:
            limit = int(input('Maximum starting value? '))
            current_total = random.randint(1, limit)
        self.current_total = current_total
        self.over = self.current_total < 1

    def __repr__(self):
        """Return a representation of this state.

        >>> repr(SubtractSquareState('p1', current_total=17))
        "SubtractSquareState('p1', 17)"
        """
        return 'SubtractSquareState({!r}, {!r})'.format(
            self.next_player, self.current_total)

    def __str__(self):
        """Return a description of this state for the user.

        >>> print(SubtractSquareState('p1', current_total=17))
        Current total: 17; next player: p1
        """
        return 'Current total: {}; next player: {}'.format(
            self.current_total, self.next_player)

    def __eq__(self, other):
        """Return True if other is the same kind of state with the same
        total and player to move.
        """
        mine = (type(self), self.current_total, self.next_player)
        return mine == (type(other), other.current_total, other.next_player)

    def possible_next_moves(self):
        """Return the legal moves, largest amount first.

        >>> SubtractSquareState('p1', current_total=5).possible_next_moves()
        [SubtractSquareMove(4), SubtractSquareMove(1)]
        """
        root = 1
        moves = []
        while root * root <= self.current_total:
            moves.insert(0, SubtractSquareMove(root * root))
            root += 1
        return moves

    def apply_move(self, move):
        """Return the state after move, or None if move is not legal here.

        >>> SubtractSquareState('p1', current_total=5).apply_move(
        ...     SubtractSquareMove(4))
        SubtractSquareState('p2', 1)
        >>> SubtractSquareState('p1', current_total=5).apply_move(
        ...     SubtractSquareMove(9)) is None
        True
        """
        if move not in self.possible_next_moves():
            return None
        left = self.current_total - move.amount
        return SubtractSquareState(self.opponent(), current_total=left)

    def get_move(self):
        """Ask the user how much to remove and return that move."""
        return SubtractSquareMove(int(input('Remove how much? ')))

    def winner(self, player):
        """Return True if player has won: the total is gone and player
        made the last move.

        >>> SubtractSquareState('p2', current_total=0).winner('p1')
        True
        """
        return self.current_total == 0 and player == self.opponent()

    def rough_outcome(self):
        """Return a quick estimate of the outcome for next_player.

        WIN if the whole total can be removed at once, LOSE if every move
        leaves the opponent such a total, DRAW otherwise.

        >>> SubtractSquareState('p1', current_total=9).rough_outcome()
        1.0
        >>> SubtractSquareState('p1', current_total=2).rough_outcome()
        -1.0
        """
        if _is_square(self.current_total):
            return self.WIN
        leftovers = [self.current_total - m.amount
                     for m in self.possible_next_moves()]
        if all(_is_square(left) for left in leftovers):
            return self.LOSE
        return self.DRAW


def _is_square(number):
    """Return True if number is a positive perfect square.

    >>> _is_square(16), _is_square(15), _is_square(0)
    (True, False, False)
    """
    root = int(number ** 0.5)
    near = (root - 1, root, root + 1)
    return number > 0 and any(r * r == number for r in near)
