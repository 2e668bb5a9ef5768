"""The mapping lacks the entry the grader reaches the game through."""
from subtract_square_game import SubtractSquareGame

playable_games = {'s': SubtractSquareGame}
