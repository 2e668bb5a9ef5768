"""Adversarial search framework: games, search algorithms and players.

This file is LOCKED: the grader always uses its own copy, so edits you make here are ignored.

It follows the interface of the classic AIMA ``games.py`` (Russell & Norvig, Chapter 5):

* ``GameState(to_move, utility, board, moves)`` is the state of a game;
* ``Game`` is the abstract game your class extends (``actions``, ``result``, ``utility``,
  ``terminal_test``, ``to_move``, ``display``, ``play_game``);
* the search functions take ``(state, game)`` and return a move;
* a player is a function ``player(game, state) -> move``.

``Fig52Game`` (the two-ply game of Fig. 5.2) and ``TicTacToe`` are worked examples.
"""

import ast
import copy  # noqa: F401  (exported by ``from games import *``, as in the textbook's file)
import itertools  # noqa: F401  (idem)
import math
import random
from collections import namedtuple

GameState = namedtuple('GameState', 'to_move, utility, board, moves')


# ______________________________________________________________________________
# Search algorithms


def minmax_decision(state, game):
    """Return the move with the best minimax value for the player to move in ``state``.

    Searches to the end of the game. Ties go to the earliest move in ``game.actions``.
    """
    player = game.to_move(state)

    def max_value(node):
        if game.terminal_test(node):
            return game.utility(node, player)
        return max((min_value(game.result(node, a)) for a in game.actions(node)),
                   default=-math.inf)

    def min_value(node):
        if game.terminal_test(node):
            return game.utility(node, player)
        return min((max_value(game.result(node, a)) for a in game.actions(node)),
                   default=math.inf)

    # max() keeps the first of equal keys, so ties go to the earliest action.
    return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))


def alpha_beta_search(state, game):
    """Return the minimax move for the player to move, with alpha-beta pruning (Fig. 5.7).

    Searches to the end of the game. At the root a move replaces the current best one only
    when its value is strictly better, so ties go to the earliest move in ``game.actions``.
    """
    player = game.to_move(state)

    def max_value(node, alpha, beta):
        if game.terminal_test(node):
            return game.utility(node, player)
        value = -math.inf
        for a in game.actions(node):
            value = max(value, min_value(game.result(node, a), alpha, beta))
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return value

    def min_value(node, alpha, beta):
        if game.terminal_test(node):
            return game.utility(node, player)
        value = math.inf
        for a in game.actions(node):
            value = min(value, max_value(game.result(node, a), alpha, beta))
            if value <= alpha:
                return value
            beta = min(beta, value)
        return value

    best_score = -math.inf
    best_action = None
    for a in game.actions(state):
        value = min_value(game.result(state, a), best_score, math.inf)
        if value > best_score:
            best_score, best_action = value, a
    return best_action


def alpha_beta_cutoff_search(state, game, d=4, cutoff_test=None, eval_fn=None):
    """Alpha-beta search that stops below depth ``d`` and scores the frontier with ``eval_fn``.

    ``cutoff_test(state, depth)`` defaults to "deeper than d, or the game is over";
    ``eval_fn(state)`` defaults to the utility for the player to move at the root.
    """
    player = game.to_move(state)
    if cutoff_test is None:
        def cutoff_test(node, depth):
            return depth > d or game.terminal_test(node)
    if eval_fn is None:
        def eval_fn(node):
            return game.utility(node, player)

    def max_value(node, alpha, beta, depth):
        if cutoff_test(node, depth):
            return eval_fn(node)
        value = -math.inf
        for a in game.actions(node):
            value = max(value, min_value(game.result(node, a), alpha, beta, depth + 1))
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return value

    def min_value(node, alpha, beta, depth):
        if cutoff_test(node, depth):
            return eval_fn(node)
        value = math.inf
        for a in game.actions(node):
            value = min(value, max_value(game.result(node, a), alpha, beta, depth + 1))
            if value <= alpha:
                return value
            beta = min(beta, value)
        return value

    best_score = -math.inf
    best_action = None
    for a in game.actions(state):
        value = min_value(game.result(state, a), best_score, math.inf, 1)
        if value > best_score:
            best_score, best_action = value, a
    return best_action


# ______________________________________________________________________________
# Players for games


def query_player(game, state):
    """A human player: show the state and the legal moves, then read a move from the keyboard.

    The answer is read as a Python literal, so ``(0,6)`` becomes the tuple ``(0, 6)``; text
    that is not a literal (``a1``) is kept as a string.
    """
    print("current state:")
    game.display(state)
    print("available moves: {}".format(game.actions(state)))
    print("")
    move = None
    if game.actions(state):
        move_string = input('Your move? ')
        try:
            move = ast.literal_eval(move_string.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            move = move_string
    else:
        print('no legal moves: passing turn to next player')
    return move


def random_player(game, state):
    """A player that picks a legal move uniformly at random (None when there is none)."""
    moves = game.actions(state)
    return random.choice(moves) if moves else None


def alpha_beta_player(game, state):
    """A player that plays the move chosen by ``alpha_beta_search``."""
    return alpha_beta_search(state, game)


def minmax_player(game, state):
    """A player that plays the move chosen by ``minmax_decision``."""
    return minmax_decision(state, game)


# ______________________________________________________________________________
# The abstract game


class Game:
    """A game is similar to a problem, but it has a utility for each terminal state and no
    path cost. Subclass it and implement ``actions``, ``result`` and ``utility``; override
    ``terminal_test``, ``to_move`` and ``display`` if the defaults do not fit. The subclass's
    constructor must set ``self.initial`` to the starting state."""

    def actions(self, state):
        """Return a list of the allowable moves at this point."""
        raise NotImplementedError

    def result(self, state, move):
        """Return the state that results from making a move from a state."""
        raise NotImplementedError

    def utility(self, state, player):
        """Return the value of this final state to player."""
        raise NotImplementedError

    def terminal_test(self, state):
        """Return True if this is a final state for the game."""
        return not self.actions(state)

    def to_move(self, state):
        """Return the player whose move it is in this state."""
        return state.to_move

    def display(self, state):
        """Print or otherwise display the state."""
        print(state)

    def __repr__(self):
        return '<{}>'.format(self.__class__.__name__)

    def play_game(self, *players):
        """Play an n-person, move-alternating game; return the final utility for the player
        who moved first."""
        state = self.initial
        while True:
            for player in players:
                move = player(self, state)
                state = self.result(state, move)
                if self.terminal_test(state):
                    self.display(state)
                    return self.utility(state, self.to_move(self.initial))


# ______________________________________________________________________________
# Worked examples


class Fig52Game(Game):
    """The two-ply game of Fig. 5.2: MAX moves at A, MIN at B, C or D; leaves carry MAX's
    utility."""

    succs = {
        'A': {'a1': 'B', 'a2': 'C', 'a3': 'D'},
        'B': {'b1': 'B1', 'b2': 'B2', 'b3': 'B3'},
        'C': {'c1': 'C1', 'c2': 'C2', 'c3': 'C3'},
        'D': {'d1': 'D1', 'd2': 'D2', 'd3': 'D3'},
    }
    utils = {'B1': 3, 'B2': 12, 'B3': 8, 'C1': 2, 'C2': 4, 'C3': 6, 'D1': 14, 'D2': 5, 'D3': 2}
    initial = 'A'

    def actions(self, state):
        return list(self.succs.get(state, {}))

    def result(self, state, move):
        return self.succs[state][move]

    def utility(self, state, player):
        value = self.utils[state]
        return value if player == 'MAX' else -value

    def terminal_test(self, state):
        return state not in self.succs

    def to_move(self, state):
        return 'MIN' if state in ('B', 'C', 'D') else 'MAX'


class TicTacToe(Game):
    """Tic-tac-toe on an h x v board, k in a row wins; 'X' moves first.

    A state's board is a dict {(x, y): player} with 1-based coordinates, its moves the empty
    squares in row-major order, and its utility +1 if X has won, -1 if O has, 0 otherwise.
    """

    def __init__(self, h=3, v=3, k=3):
        self.h = h
        self.v = v
        self.k = k
        moves = [(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]
        self.initial = GameState(to_move='X', utility=0, board={}, moves=moves)

    def actions(self, state):
        """Legal moves are any square not yet taken."""
        return state.moves

    def result(self, state, move):
        if move not in state.moves:
            return state  # an illegal move has no effect
        board = dict(state.board)
        board[move] = state.to_move
        moves = [m for m in state.moves if m != move]
        return GameState(to_move='O' if state.to_move == 'X' else 'X',
                         utility=self.compute_utility(board, move, state.to_move),
                         board=board, moves=moves)

    def utility(self, state, player):
        """Return the value to player; 1 for win, -1 for loss, 0 otherwise."""
        return state.utility if player == 'X' else -state.utility

    def terminal_test(self, state):
        """A state is terminal if it is won or there are no empty squares."""
        return state.utility != 0 or len(state.moves) == 0

    def display(self, state):
        for x in range(1, self.h + 1):
            print(' '.join(state.board.get((x, y), '.') for y in range(1, self.v + 1)) + ' ')

    def compute_utility(self, board, move, player):
        """If 'X' wins with this move, return 1; if 'O' wins return -1; else return 0."""
        for direction in ((0, 1), (1, 0), (1, -1), (1, 1)):
            if self.k_in_row(board, move, player, direction):
                return 1 if player == 'X' else -1
        return 0

    def k_in_row(self, board, move, player, delta_x_y):
        """Return true if there is a line through move on board for player."""
        dx, dy = delta_x_y
        count = 1  # the square of the move itself
        for sign in (1, -1):
            x, y = move[0] + sign * dx, move[1] + sign * dy
            while board.get((x, y)) == player:
                count += 1
                x, y = x + sign * dx, y + sign * dy
        return count >= self.k
