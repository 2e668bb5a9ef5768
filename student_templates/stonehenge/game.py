"""The abstract superclass of every game played through GameInterface."""
from game_state import GameState


class Game:
    """An abstract two-player, turn-based game.

    current_state - the state of the game in progress
    """
    current_state: GameState

    def __init__(self, p1_starts: bool) -> None:
        """Start a new game; p1 moves first when p1_starts is True."""
        raise NotImplementedError("Must be implemented in a subclass")

    def get_instructions(self) -> str:
        """Return the rules of this game, for a person to read."""
        raise NotImplementedError("Must be implemented in a subclass")

    def is_over(self, state: GameState) -> bool:
        """Return whether the game is over in the given state."""
        raise NotImplementedError("Must be implemented in a subclass")

    def is_winner(self, player: str) -> bool:
        """Return whether player ('p1' or 'p2') has won the game in its
        current state."""
        raise NotImplementedError("Must be implemented in a subclass")

    def str_to_move(self, string: str) -> object:
        """Return the move that string names, or an invalid move when
        string names no move of this game."""
        raise NotImplementedError("Must be implemented in a subclass")


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
