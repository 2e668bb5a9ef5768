"""The state of a game of tippy."""
from game_state import GameState
from tippy_move import TippyMove

EMPTY = ' '
MARKS = {'p1': 'X', 'p2': 'O'}

# The four tippy orientations, as (row, column) offsets from the top left
# corner of the 2 x 3 or 3 x 2 box that holds them.
SHAPES = (((0, 0), (0, 1), (1, 1), (1, 2)),
          ((0, 1), (0, 2), (1, 0), (1, 1)),
          ((0, 0), (1, 0), (1, 1), (2, 1)),
          ((0, 1), (1, 0), (1, 1), (2, 0)))

_tippies_by_size = {}


def tippies(size):
    """Return every placement of a tippy on a size x size grid, each as a
    tuple of four (row, column) squares.

    >>> len(tippies(3)), len(tippies(4))
    (8, 24)
    """
    if size not in _tippies_by_size:
        found = []
        for shape in SHAPES:
            height = 1 + max(r for r, c in shape)
            width = 1 + max(c for r, c in shape)
            for top in range(size - height + 1):
                for left in range(size - width + 1):
                    found.append(tuple((top + r, left + c) for r, c in shape))
        _tippies_by_size[size] = found
    return _tippies_by_size[size]


class TippyGameState(GameState):
    """The state of a game of tippy on a size x size grid.

    p1 marks squares with X and p2 with O. Whoever first marks the four
    squares of a tippy (an S or Z tetromino, lying or standing) wins; a
    full grid without a tippy is a tie.

    size: int -- the number of rows (and columns), at least 3
    board: list of list of str -- board[row][column] is 'X', 'O' or ' '
    """

    def __init__(self, p, interactive=False, size=3, board=None):
        """Create a game of tippy with player p to move.

        When interactive, ask the user for the size of the grid; otherwise
        use size. board is the grid so far (empty if None).

        >>> TippyGameState('p1', size=4).possible_next_moves()[5]
        TippyMove(1, 1)
        """
        GameState.__init__(self, p)
        self.instructions = ('Take turns marking empty squares: p1 with X '
                             'and p2 with O. The first to mark four squares '
                             'in an S or Z shape (a tippy), lying or '
                             'standing, wins. Type a move as a row and a '
                             'column, counting from 0, e.g. 0 2.')
        if interactive:
            size = _ask_size()
        if board is None:
            board = [[EMPTY] * size for _ in range(size)]
        self.size = size
        self.board = board
        full = not any(EMPTY in row for row in board)
        self.over = full or self.winner('p1') or self.winner('p2')

    def __repr__(self):
        """Return a representation of this state.

        >>> TippyGameState('p2', size=3)
        TippyGameState('p2', size=3, board=['   ', '   ', '   '])
        """
        rows = [''.join(row) for row in self.board]
        return 'TippyGameState({!r}, size={}, board={!r})'.format(
            self.next_player, self.size, rows)

    def __str__(self):
        """Return a picture of the grid and the player to move.

        >>> print(TippyGameState('p1', size=3).apply_move(TippyMove(0, 2)))
           0 1 2
        0 |_|_|X|
        1 |_|_|_|
        2 |_|_|_|
        next player: p2
        """
        lines = ['   ' + ' '.join(str(c) for c in range(self.size))]
        for r, row in enumerate(self.board):
            cells = ''.join(mark if mark != EMPTY else '_' for mark in row)
            lines.append('{} |{}|'.format(r, '|'.join(cells)))
        lines.append('next player: {}'.format(self.next_player))
        return '\n'.join(lines)

    def __eq__(self, other):
        """Return True if other is a tippy state with the same grid and
        player to move.
        """
        mine = (type(self), self.next_player, self.board)
        return mine == (type(other), other.next_player, other.board)

    def possible_next_moves(self):
        """Return the legal moves: every empty square, unless the game is
        over.

        >>> len(TippyGameState('p1', size=5).possible_next_moves())
        25
        """
        if self.over:
            return []
        return [TippyMove(r, c) for r in range(self.size)
                for c in range(self.size) if self.board[r][c] == EMPTY]

    def apply_move(self, move):
        """Return the state after move, or None if move is not legal here.

        >>> start = TippyGameState('p1', size=3)
        >>> start.apply_move(TippyMove(0, 0)).board[0]
        ['X', ' ', ' ']
        >>> start.apply_move(TippyMove(3, 0)) is None
        True
        """
        if not self._is_legal(move):
            return None
        board = [row[:] for row in self.board]
        board[move.row][move.column] = MARKS[self.next_player]
        return TippyGameState(self.opponent(), size=self.size, board=board)

    def _is_legal(self, move):
        """Return True if move marks an empty square of an unfinished game."""
        if self.over or not isinstance(move, TippyMove):
            return False
        inside = range(self.size)
        if move.row not in inside or move.column not in inside:
            return False
        return self.board[move.row][move.column] == EMPTY

    def get_move(self):
        """Ask the user for a row and a column and return that move.

        Input that is not two numbers gives a move that is never legal.
        """
        words = input('Row and column, e.g. 0 2: ').replace(',', ' ').split()
        if len(words) == 2 and all(w.isdigit() for w in words):
            return TippyMove(int(words[0]), int(words[1]))
        return TippyMove(-1, -1)

    def winner(self, player):
        """Return True if player has formed a tippy.

        >>> state = TippyGameState('p2', size=3,
        ...                        board=[list('XX '), list(' XX'),
        ...                               list('OO ')])
        >>> state.winner('p1'), state.winner('p2'), state.over
        (True, False, True)
        """
        mark = MARKS[player]
        return any(all(self.board[r][c] == mark for r, c in tippy)
                   for tippy in tippies(self.size))

    def rough_outcome(self):
        """Return a quick estimate of the outcome for next_player.

        WIN if next_player can form a tippy right now, LOSE if the opponent
        threatens two tippies that cannot both be blocked, DRAW otherwise.

        >>> TippyGameState('p1', size=3,
        ...                board=[list('XX '), list(' X '),
        ...                       list('OO ')]).rough_outcome()
        1.0
        """
        if self.over:
            return self.outcome()
        if self._threats(MARKS[self.next_player]):
            return self.WIN
        if len(self._threats(MARKS[self.opponent()])) > 1:
            return self.LOSE
        return self.DRAW

    def _threats(self, mark):
        """Return the set of empty squares where mark would form a tippy."""
        squares = set()
        for tippy in tippies(self.size):
            marks = [self.board[r][c] for r, c in tippy]
            if marks.count(mark) == 3 and marks.count(EMPTY) == 1:
                squares.add(tippy[marks.index(EMPTY)])
        return squares


def _ask_size():
    """Ask the user for the size of the grid until it is at least 3."""
    size = 0
    while size < 3:
        answer = input('Size of the grid (at least 3)? ').strip()
        size = int(answer) if answer.isdigit() else 0
    return size
