"""PNT (pick numbered tokens): compute the best move with alpha-beta search.

Usage:
    python3 pnt.py <#tokens> <#taken> <taken tokens...> <depth>

Example (the handout's sample):
    python3 pnt.py 7 3 1 4 2 3

Rules: tokens are 1..n. The first move of a game must take an odd token strictly less than
n/2; every later move takes an untaken token that is a multiple or a factor of the last token
taken. A player with no legal move loses. Max (player A) moves when an even number of tokens
has been taken, Min (player B) when an odd number has.

Search: alpha-beta as in AIMA 3rd ed. Fig. 5.7, children in increasing token order, alpha =
-inf and beta = +inf at the root, ties at the root going to the smaller token.

Counting conventions:
    visited    every node entered, the root included (the root is at depth 0);
    evaluated  every node given a static value: a terminal node, or a node at the depth limit
               (depth 0 on the command line means no limit);
    max depth  the depth of the deepest node visited;
    branching  (visited - 1) / (visited - evaluated): the children generated per expanded node.
"""

import math
import sys


def legal_moves(n, taken, last):
    """Return the tokens the player to move may take, in increasing order.

    `taken` is the set of tokens already taken and `last` the last one taken (None at the
    start of a game).
    """
    if last is None:
        return [token for token in range(1, n + 1, 2) if 2 * token < n]
    return [
        token
        for token in range(1, n + 1)
        if token not in taken and (token % last == 0 or last % token == 0)
    ]


def is_prime(number):
    """Return True when `number` is a prime."""
    if number < 2:
        return False
    return all(number % d != 0 for d in range(2, math.isqrt(number) + 1))


def largest_prime_factor(number):
    """Return the largest prime dividing `number` (which is at least 2)."""
    largest = 1
    divisor = 2
    while divisor * divisor <= number:
        while number % divisor == 0:
            largest = divisor
            number //= divisor
        divisor += 1
    return number if number > 1 else largest


def evaluate(n, taken, last, max_to_move):
    """Return the static value of a position, from Max's point of view (handout 2.5).

    `taken` holds the tokens taken so far and `last` the last one (None before any move).
    """
    moves = legal_moves(n, taken, last)
    if not moves:
        # The player to move cannot move: that player has lost.
        return -1.0 if max_to_move else 1.0
    if 1 not in taken:
        return 0.0
    if last == 1:
        count, weight = len(moves), 0.5
    elif is_prime(last):
        count, weight = sum(1 for m in moves if m % last == 0), 0.7
    else:
        prime = largest_prime_factor(last)
        count, weight = sum(1 for m in moves if m % prime == 0), 0.6
    value = weight if count % 2 == 1 else -weight
    return value if max_to_move else -value


class AlphaBeta:
    """One alpha-beta search over a PNT game with n tokens, with its node counters."""

    def __init__(self, n, depth_limit):
        self.n = n
        self.depth_limit = depth_limit
        self.visited = 0
        self.evaluated = 0
        self.max_depth = 0

    def best_move(self, history):
        """Return (move, value) for the player to move after the tokens in `history`."""
        taken = set(history)
        last = history[-1] if history else None
        max_to_move = len(history) % 2 == 0
        self._enter(0)
        moves = legal_moves(self.n, taken, last)
        if not moves:
            self.evaluated += 1
            return None, evaluate(self.n, taken, last, max_to_move)
        alpha, beta = -math.inf, math.inf
        best_token, best_value = None, None
        for token in moves:
            taken.add(token)
            value = self._value(taken, token, 1, alpha, beta, not max_to_move)
            taken.remove(token)
            if best_value is None or (value > best_value if max_to_move else value < best_value):
                best_token, best_value = token, value
            if max_to_move:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
        return best_token, best_value

    def _enter(self, depth):
        """Count a node entered at `depth`."""
        self.visited += 1
        self.max_depth = max(self.max_depth, depth)

    def _value(self, taken, last, depth, alpha, beta, max_to_move):
        """MAX-VALUE or MIN-VALUE of Fig. 5.7 for the node reached by taking `last`."""
        self._enter(depth)
        moves = legal_moves(self.n, taken, last)
        if not moves or depth == self.depth_limit:
            self.evaluated += 1
            return evaluate(self.n, taken, last, max_to_move)
        best = -math.inf if max_to_move else math.inf
        for token in moves:
            taken.add(token)
            value = self._value(taken, token, depth + 1, alpha, beta, not max_to_move)
            taken.remove(token)
            if max_to_move:
                best = max(best, value)
                if best >= beta:
                    return best
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                if best <= alpha:
                    return best
                beta = min(beta, best)
        return best

    def branching_factor(self):
        """Average effective branching factor: children generated per expanded node."""
        expanded = self.visited - self.evaluated
        return (self.visited - 1) / expanded if expanded else 0.0


def parse_arguments(argv):
    """Return (n, taken, depth) from the command-line words after the program name.

    `taken` is the list of taken tokens, first to last.
    """
    numbers = [int(word) for word in argv]
    n, count = numbers[0], numbers[1]
    taken = numbers[2:2 + count]
    depth = numbers[2 + count]
    return n, taken, depth


def alpha_beta_search(n, taken, depth):
    """Search the position after the tokens in `taken` and return the six results.

    Return (move, value, visited, evaluated, max_depth, branching_factor).
    """
    search = AlphaBeta(n, depth)
    move, value = search.best_move(taken)
    return (move, value, search.visited, search.evaluated, search.max_depth,
            search.branching_factor())


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
