"""Play the Game of Nim: the computer (alpha-beta search, MAX, moves first) against you.

This file is LOCKED: the grader always uses its own copy. Run it beside your game_of_nim.py:

    python3 play_nim.py

It prints the board before play, then every move and the board after it, as in the handout.
(A full alpha-beta search from [7, 5, 3, 1] takes a while in plain Python: be patient, or
try a smaller board such as [0, 5, 3, 1] first.)
"""

from game_of_nim import GameOfNim
from games import alpha_beta_player, query_player


def play_verbose(game, *players):
    """Play like ``Game.play_game``, printing the board first and each move with the board after
    it; return the final utility for the player who moved first."""
    state = game.initial
    game.display(state)
    while True:
        for player in players:
            move = player(game, state)
            print(move)
            state = game.result(state, move)
            game.display(state)
            if game.terminal_test(state):
                return game.utility(state, game.to_move(game.initial))


def announce(utility):
    """Print who won, from the utility for MAX (the player who moved first)."""
    if utility < 0:
        print("MIN won the game")
    else:
        print("MAX won the game")


def main(board=(7, 5, 3, 1)):
    """Play one game on ``board``: alpha_beta_player (MAX) against query_player (MIN)."""
    nim = GameOfNim(list(board))
    announce(play_verbose(nim, alpha_beta_player, query_player))


if __name__ == "__main__":
    main()
