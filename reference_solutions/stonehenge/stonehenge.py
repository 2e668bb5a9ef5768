"""Stonehenge: players take turns claiming cells of a hexagonal board, and
capture the ley-lines through them.

A board of side length n has rows of 2, 3, ..., n + 1 cells and a last row of
n cells, lettered A, B, C, ... row by row. Its ley-lines are the rows and the
two families of diagonals. Whoever holds at least half of the cells of a
ley-line first captures it for good; whoever captures at least half of the
ley-lines first wins.
"""
from game import Game
from game_state import GameState

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
UNCLAIMED = "@"


def cell_coordinates(side: int) -> list:
    """Return the (row, column) of each cell of a board, in letter order.

    Columns run from 0 in every row but the last, whose corner is cut.

    >>> cell_coordinates(1)
    [(0, 0), (0, 1), (1, 1)]
    """
    coordinates = [(row, column) for row in range(side)
                   for column in range(row + 2)]
    return coordinates + [(side, column) for column in range(1, side + 1)]


def ley_lines(side: int) -> dict:
    """Return the cell indices of every ley-line of a board, keyed 'h<k>'
    (rows), 'dl<k>' (down-left diagonals) and 'dr<k>' (down-right ones).

    >>> ley_lines(1)
    {'h0': [0, 1], 'h1': [2], 'dl0': [0], 'dl1': [1, 2], \
'dr0': [1], 'dr1': [0, 2]}
    """
    cells = list(enumerate(cell_coordinates(side)))
    lines = {}
    for k in range(side + 1):
        lines["h" + str(k)] = [i for i, (row, _) in cells if row == k]
    for k in range(side + 1):
        lines["dl" + str(k)] = [i for i, (_, col) in cells if col == k]
    for k in range(side + 1):
        lines["dr" + str(k)] = [i for i, (row, col) in cells
                                if row + 1 - col == k]
    return lines


BOARD_LINES = {side: ley_lines(side) for side in range(1, 6)}


class StonehengeState(GameState):
    """The state of a game of Stonehenge: the board and whose turn it is.

    side - the side length of the board
    cells - each cell's letter, or '1' / '2' once a player has claimed it
    claims - each ley-line's marker: '@', or the claiming player's '1' / '2'
    """
    side: int
    cells: list
    claims: dict

    def __init__(self, is_p1_turn: bool, side_length: int,
                 cells: list = None, claims: dict = None) -> None:
        """Make a state of a board with the given side length (1 to 5).

        Without cells and claims, the board is empty.
        """
        super().__init__(is_p1_turn)
        self.side = side_length
        if cells is None:
            cells = list(LETTERS[:(side_length ** 2 + 5 * side_length) // 2])
        if claims is None:
            claims = {name: UNCLAIMED for name in BOARD_LINES[side_length]}
        self.cells = cells
        self.claims = claims

    def get_winner(self) -> str:
        """Return 'p1' or 'p2' if that player holds at least half of the
        ley-lines, else ''.

        >>> StonehengeState(True, 1).make_move('A').get_winner()
        'p1'
        """
        for mark in "12":
            held = list(self.claims.values()).count(mark)
            if 2 * held >= len(self.claims):
                return "p" + mark
        return ""

    def get_possible_moves(self) -> list:
        """Return the letters of the unclaimed cells, or [] once the game is
        over.

        >>> StonehengeState(True, 1).get_possible_moves()
        ['A', 'B', 'C']
        """
        if self.get_winner():
            return []
        return [cell for cell in self.cells if cell in LETTERS]

    def make_move(self, move: object) -> "StonehengeState":
        """Return the state after the player to move claims the cell named
        move, capturing every unclaimed ley-line of which they then hold at
        least half. This state is left unchanged.
        """
        if move not in self.get_possible_moves():
            raise ValueError(f"{move} is not a possible move")
        mark = "1" if self.p1_turn else "2"
        index = self.cells.index(move)
        cells = self.cells[:index] + [mark] + self.cells[index + 1:]
        claims = dict(self.claims)
        for name, members in BOARD_LINES[self.side].items():
            if claims[name] == UNCLAIMED and index in members:
                held = [cells[i] for i in members].count(mark)
                if 2 * held >= len(members):
                    claims[name] = mark
        return StonehengeState(not self.p1_turn, self.side, cells, claims)

    def _cell_rows(self) -> list:
        """Return the cells as one list per row of the board."""
        rows = []
        start = 0
        for length in list(range(2, self.side + 2)) + [self.side]:
            rows.append(self.cells[start:start + length])
            start += length
        return rows

    def _row_line(self, row: int, cells: list) -> str:
        """Return the text of one row of cells with its markers."""
        text = " - ".join([self.claims["h" + str(row)]] + cells)
        if row < self.side - 1:
            text += "   " + self.claims["dl" + str(row + 2)]
        elif row == self.side:
            return "  " + text + "   " + self.claims["dr0"]
        return " " * (2 * (self.side - 1 - row)) + text

    def _connector(self, row: int) -> str:
        """Return the line drawn between row and the row below it."""
        if row < self.side - 1:
            indent = " " * (2 * (self.side - 2 - row) + 5)
            return indent + "/ \\ " * (row + 2) + "/"
        return " " * 5 + "\\ / " * self.side + "\\"

    def __str__(self) -> str:
        """Return the board, with every ley-line's marker.

        >>> print(StonehengeState(True, 1))
              @   @
             /   /
        @ - A - B
             \\ / \\
          @ - C   @
               \\
                @
        """
        top = self.claims["dl0"] + "   " + self.claims["dl1"]
        lines = [" " * (2 * self.side + 4) + top,
                 " " * (2 * self.side + 3) + "/   /"]
        rows = self._cell_rows()
        for row in range(self.side):
            lines.append(self._row_line(row, rows[row]))
            lines.append(self._connector(row))
        lines.append(self._row_line(self.side, rows[self.side]))
        lines.append(" " * 7 + "   ".join(["\\"] * self.side))
        bottom = [self.claims["dr" + str(k)] for k in range(self.side, 0, -1)]
        lines.append(" " * 8 + "   ".join(bottom))
        return "\n".join(lines)

    def __repr__(self) -> str:
        """Return a text naming the player to move, the cells and the
        ley-line markers: equal exactly for the same position.

        >>> StonehengeState(False, 1)
        P1's Turn: False - Cells: ABC - Ley-lines: @@@@@@
        """
        cells, claims = "".join(self.cells), "".join(self.claims.values())
        turn = f"P1's Turn: {self.p1_turn}"
        return f"{turn} - Cells: {cells} - Ley-lines: {claims}"

    def _has_winning_move(self) -> bool:
        """Return whether the player to move can win with one move."""
        me = self.get_current_player_name()
        return any(self.make_move(move).get_winner() == me
                   for move in self.get_possible_moves())

    def rough_outcome(self) -> float:
        """Return WIN if the player to move has won or can win with one
        move, LOSE if they have lost or every move lets the opponent win at
        once, and DRAW otherwise.

        >>> StonehengeState(True, 1).rough_outcome()
        1
        """
        winner = self.get_winner()
        if winner:
            if winner == self.get_current_player_name():
                return self.WIN
            return self.LOSE
        if self._has_winning_move():
            return self.WIN
        if all(self.make_move(move)._has_winning_move()
               for move in self.get_possible_moves()):
            return self.LOSE
        return self.DRAW


class StonehengeGame(Game):
    """A game of Stonehenge.

    current_state - the state of the game in progress
    """
    current_state: StonehengeState

    def __init__(self, p1_starts: bool) -> None:
        """Start a game, asking the player for the side length."""
        side = int(input("Enter the side length of the board: "))
        self.current_state = StonehengeState(p1_starts, side)

    def get_instructions(self) -> str:
        """Return the rules of Stonehenge."""
        return ("Players take turns claiming cells, named by their letter. "
                "Holding at least half of the cells of a ley-line (a row or "
                "a diagonal) captures it for good. The first player to "
                "capture at least half of the ley-lines wins.")

    def is_over(self, state: StonehengeState) -> bool:
        """Return whether a player has won in state."""
        return state.get_winner() != ""

    def is_winner(self, player: str) -> bool:
        """Return whether player ('p1' or 'p2') has won the current game."""
        return self.current_state.get_winner() == player

    def str_to_move(self, string: str) -> str:
        """Return the move named by string: the letter of a cell."""
        return string.strip()


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
