"""Plays best_move against itself from each total given on the command line.

Provided with the assignment: do not change it (the grader uses its own copy).
"""

import sys

from subtract_square import apply, best_move, is_over, winner


def other(player):
    return "p2" if player == "p1" else "p1"


def play(total):
    print(f"Game from {total}")
    player = "p1"
    while not is_over(total):
        amount = best_move(total)
        after = apply(total, amount)
        if after is None:
            print(f"{player} chose an illegal move: {amount!r}")
            return
        print(f"{player} removes {amount}, total {after}")
        total, player = after, other(player)
    print(f"Winner: {winner(total, player)}")


if __name__ == "__main__":
    for argument in sys.argv[1:]:
        play(int(argument))
