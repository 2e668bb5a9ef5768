"""PNT (pick numbered tokens): compute the best move with alpha-beta search.

COMP 472 assignment 3. Fill in the three places marked "TODO"; keep the command line and the
output format as they are, because your program is graded by running it.

Usage:
    python3 pnt.py <#tokens> <#taken> <taken tokens...> <depth>

    #tokens   n, the tokens are 1, 2, ..., n
    #taken    how many tokens were taken already (even: Max to move, odd: Min to move)
    taken     the taken tokens, first to last (the last one is the last move)
    depth     the search depth; 0 means search to the end of the game

Example (the handout's sample):
    python3 pnt.py 7 3 1 4 2 3
prints
    Move: 6
    Value: 1.0
    Number of Nodes Visited: 3
    Number of Nodes Evaluated: 1
    Max Depth Reached: 2
    Avg Effective Branching Factor: 1.0

The files testcase.txt and output1.txt .. output3.txt hold the three official test cases, and
output_sample.txt the output of the handout's sample above. `python3 precheck.py` runs your
program on all four and checks its output as the grader does (field by field: trailing spaces
and the final newline do not matter, the labels and one-decimal floats do).

How the grader counts (these conventions reproduce the official outputs):
    - Search with alpha-beta as in AIMA 3rd ed. Fig. 5.7: alpha = -inf and beta = +inf at the
      root, children in increasing token order, a Max node returns as soon as v >= beta and a
      Min node as soon as v <= alpha.
    - At the root, ties between moves of equal value go to the smaller token.
    - Nodes visited: every node entered, the root included. The root is at depth 0.
    - Nodes evaluated: every node given a static value, i.e. a terminal node or a node at the
      depth limit (no depth limit when depth is 0).
    - Max depth reached: the depth of the deepest node visited.
    - Avg effective branching factor: (visited - 1) / (visited - evaluated).
    - Floats are printed with one decimal place.
"""

import sys


def parse_arguments(argv):
    """Return (n, taken, depth) from the command-line words after the program name.

    `taken` is the list of taken tokens, first to last.
    """
    numbers = [int(word) for word in argv]
    n, count = numbers[0], numbers[1]
    taken = numbers[2:2 + count]
    depth = numbers[2 + count]
    return n, taken, depth


def legal_moves(n, taken, last):
    """Return the tokens the player to move may take, in increasing order.

    `taken` holds the tokens already taken and `last` is the last token taken (None when no
    token has been taken yet).

    First move of a game: an odd token strictly less than n/2.
    Later moves: an untaken token that is a multiple or a factor of `last`.
    """
    # TODO: write the move generation.
    raise NotImplementedError("legal_moves is not written yet")


def evaluate(n, taken, last, max_to_move):
    """Return the static value of a position, from Max's point of view (handout 2.5).

    1.0 / -1.0 at the end of a game when Max / Min wins (the player to move has lost).
    Otherwise 0, +-0.5, +-0.7 or +-0.6 as the handout describes, negated on Min's turn.
    """
    # TODO: write the static board evaluation.
    raise NotImplementedError("evaluate is not written yet")


def alpha_beta_search(n, taken, depth):
    """Search the position after the tokens in `taken` and return the six results.

    Return (move, value, visited, evaluated, max_depth, branching_factor), counted as the
    module docstring describes.
    """
    # TODO: write the alpha-beta search (AIMA Fig. 5.7) and count the nodes.
    raise NotImplementedError("alpha_beta_search is not written yet")


def print_results(move, value, visited, evaluated, max_depth, branching_factor):
    """Print the six output lines, floats with one decimal place."""
    print(f"Move: {move}")
    print(f"Value: {value:.1f}")
    print(f"Number of Nodes Visited: {visited}")
    print(f"Number of Nodes Evaluated: {evaluated}")
    print(f"Max Depth Reached: {max_depth}")
    print(f"Avg Effective Branching Factor: {branching_factor:.1f}")


def main(argv):
    """Search the position given on the command line and print the results."""
    n, taken, depth = parse_arguments(argv)
    print_results(*alpha_beta_search(n, taken, depth))


if __name__ == "__main__":
    main(sys.argv[1:])
