"""The abstract superclass of the state of a game in progress."""


class GameState:
    """The state of a two-player game at one moment, including whose turn it
    is.

    WIN - the outcome value of a won game for the player to move
    LOSE - the outcome value of a lost game for the player to move
    DRAW - the outcome value of a tied game
    p1_turn - whether it is p1's turn to move
    """
    WIN: int = 1
    LOSE: int = -1
    DRAW: int = 0
    p1_turn: bool

    def __init__(self, is_p1_turn: bool) -> None:
        """Make a state in which p1 moves next when is_p1_turn is True."""
        self.p1_turn = is_p1_turn

    def __str__(self) -> str:
        """Return this state as text, for a person to read."""
        raise NotImplementedError("Must be implemented in a subclass")

    def get_possible_moves(self) -> list:
        """Return the moves the player to move may make now."""
        raise NotImplementedError("Must be implemented in a subclass")

    def get_current_player_name(self) -> str:
        """Return 'p1' if it is p1's turn to move, else 'p2'."""
        if self.p1_turn:
            return 'p1'
        return 'p2'

    def make_move(self, move: object) -> "GameState":
        """Return the NEW state reached by making move in this state.

        This state is left unchanged.
        """
        raise NotImplementedError("Must be implemented in a subclass")

    def is_valid_move(self, move: object) -> bool:
        """Return whether move may be made in this state."""
        return move in self.get_possible_moves()

    def __repr__(self) -> str:
        """Return a text that tells this state apart from every other state:
        two states are the same position exactly when their reprs are equal.
        """
        raise NotImplementedError("Must be implemented in a subclass")

    def rough_outcome(self) -> float:
        """Return an estimate, between LOSE and WIN, of the outcome of this
        state for the player to move."""
        raise NotImplementedError("Must be implemented in a subclass")


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
