"""The game of Subtract Square, the worked example of a Game."""
from game import Game
from game_state import GameState
from subtract_square_state import SubtractSquareState


class SubtractSquareGame(Game):
    """Players take turns subtracting a square number from a total; whoever
    brings the total to 0 wins.

    current_state - the state of the game in progress
    """
    current_state: SubtractSquareState

    def __init__(self, p1_starts: bool) -> None:
        """Start a game, asking the player for the starting total."""
        count = int(input("Enter the number to subtract from: "))
        self.current_state = SubtractSquareState(p1_starts, count)

    def get_instructions(self) -> str:
        """Return the rules of Subtract Square."""
        return ("Players take turns subtracting square numbers from the "
                "starting number. The winner is the person who subtracts "
                "to 0.")

    def is_over(self, state: GameState) -> bool:
        """Return whether the total in state has reached 0."""
        return state.current_total == 0

    def is_winner(self, player: str) -> bool:
        """Return whether player has won: the game is over and player is not
        the one to move."""
        return (self.is_over(self.current_state) and
                self.current_state.get_current_player_name() != player)

    def str_to_move(self, string: str) -> int:
        """Return the move named by string, or -1 (an invalid move) when
        string is not a whole number."""
        if not string.strip().isnumeric():
            return -1
        return int(string.strip())


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
