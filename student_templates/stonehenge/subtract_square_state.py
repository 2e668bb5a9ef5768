"""The state of a game of Subtract Square."""
from game_state import GameState


def is_square(number: int) -> bool:
    """Return whether number is the square of a whole number.

    >>> is_square(9)
    True
    >>> is_square(8)
    False
    """
    root = 0
    while root * root < number:
        root += 1
    return root * root == number


class SubtractSquareState(GameState):
    """A Subtract Square position: the total left, and whose turn it is.

    current_total - the number players subtract squares from
    """
    current_total: int

    def __init__(self, is_p1_turn: bool, current_total: int) -> None:
        """Make a state with current_total left to subtract from."""
        super().__init__(is_p1_turn)
        self.current_total = current_total

    def __str__(self) -> str:
        """Return the total left, for a person to read.

        >>> print(SubtractSquareState(True, 7))
        Current total: 7
        """
        return "Current total: {}".format(self.current_total)

    def get_possible_moves(self) -> list:
        """Return every square from 1 up to the current total, ascending.

        >>> SubtractSquareState(True, 10).get_possible_moves()
        [1, 4, 9]
        """
        moves = []
        root = 1
        while root * root <= self.current_total:
            moves.append(root * root)
            root += 1
        return moves

    def make_move(self, move: object) -> "SubtractSquareState":
        """Return the state after subtracting move (an int, or a str naming
        one) from the current total.

        >>> print(SubtractSquareState(True, 10).make_move("4"))
        Current total: 6
        """
        return SubtractSquareState(not self.p1_turn,
                                   self.current_total - int(move))

    def __repr__(self) -> str:
        """Return a text that identifies this state.

        >>> SubtractSquareState(False, 3)
        P1's Turn: False - Total: 3
        """
        return "P1's Turn: {} - Total: {}".format(self.p1_turn,
                                                  self.current_total)

    def rough_outcome(self) -> float:
        """Return WIN if the total is a positive square (the player to move
        takes it all), LOSE if every move leaves a positive square for the
        opponent, and DRAW otherwise.

        >>> SubtractSquareState(True, 9).rough_outcome()
        1
        >>> SubtractSquareState(True, 5).rough_outcome()
        -1
        >>> SubtractSquareState(True, 3).rough_outcome()
        0
        """
        if self.current_total > 0 and is_square(self.current_total):
            return self.WIN
        leftovers = [self.current_total - move
                     for move in self.get_possible_moves()]
        if all(left > 0 and is_square(left) for left in leftovers):
            return self.LOSE
        return self.DRAW


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
