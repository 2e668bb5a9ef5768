"""The Game of Nim as a ``Game`` for the adversarial search algorithms of ``games.py``.

Two players take turns removing one or more objects from a single row. Under the misere
rule of the handout, the player who removes the last object LOSES; under normal play (some
offerings) that player WINS.
"""

from games import Game, GameState

MISERE = 'misere'
NORMAL = 'normal'


class GameOfNim(Game):
    """Nim on a board given as a list of row sizes; a move ``(r, n)`` removes n objects from
    row r (0-based). MAX moves first."""

    def __init__(self, board, rule=MISERE):
        if rule not in (MISERE, NORMAL):
            raise ValueError('rule must be {!r} or {!r}, not {!r}'.format(MISERE, NORMAL, rule))
        self.rule = rule
        board = list(board)
        self.initial = GameState(to_move='MAX', utility=0, board=board,
                                 moves=self.legal_moves(board))

    @staticmethod
    def legal_moves(board):
        """All moves on ``board``, row by row, fewest objects first."""
        return [(r, n) for r, size in enumerate(board) for n in range(1, size + 1)]

    def actions(self, state):
        """The legal moves of ``state`` (computed when the state was made)."""
        return state.moves

    def result(self, state, move):
        """The new state after the player to move plays ``move``; ``state`` is not changed."""
        row, count = move
        board = list(state.board)
        board[row] -= count
        return GameState(to_move='MIN' if state.to_move == 'MAX' else 'MAX',
                         utility=self.compute_utility(board, state.to_move),
                         board=board, moves=self.legal_moves(board))

    def compute_utility(self, board, mover):
        """+1 if MAX has won after ``mover`` left ``board``, -1 if MIN has, 0 if play goes on."""
        if any(board):
            return 0
        mover_wins = self.rule == NORMAL  # under misere, taking the last object loses
        max_wins = mover_wins == (mover == 'MAX')
        return 1 if max_wins else -1

    def utility(self, state, player):
        """+1 if ``player`` has won, -1 if ``player`` has lost (0 while play goes on)."""
        return state.utility if player == 'MAX' else -state.utility

    def terminal_test(self, state):
        """The game is over when every row is empty."""
        return not any(state.board)

    def display(self, state):
        print('board:', state.board)


if __name__ == '__main__':
    from games import alpha_beta_player, query_player

    nim = GameOfNim([0, 5, 3, 1])
    print(nim.initial.board)
    print(nim.initial.moves)
    print(nim.result(nim.initial, (1, 3)))
    utility = nim.play_game(alpha_beta_player, query_player)
    print('MIN won the game' if utility < 0 else 'MAX won the game')
