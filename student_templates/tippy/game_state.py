"""The state of a two-player, zero-sum, perfect-information game."""


class GameState:
    """The state of a game in progress, seen by the player about to move.

    next_player: str -- the player to move next, 'p1' or 'p2'
    over: bool -- True once the game has ended
    instructions: str -- how to play, shown before the game starts
    """

    WIN, LOSE, DRAW = 1.0, -1.0, 0.0

    def __init__(self, p, interactive=False):
        """Create a new game state with player p to move.

        p: str -- 'p1' or 'p2'
        interactive: bool -- True if the user should be asked for the settings
        """
        self.next_player = p
        self.over = False
        self.instructions = 'No instructions: this is an abstract game.'

    def __str__(self):
        """Return a user-friendly picture of this state."""
        raise NotImplementedError('Implement __str__ in a subclass')

    def __repr__(self):
        """Return a representation of this state for programmers."""
        raise NotImplementedError('Implement __repr__ in a subclass')

    def opponent(self):
        """Return the player who is not about to move.

        >>> GameState('p1').opponent()
        'p2'
        """
        return 'p2' if self.next_player == 'p1' else 'p1'

    def get_move(self):
        """Ask the user for a move and return it as a Move."""
        raise NotImplementedError('Implement get_move in a subclass')

    def apply_move(self, move):
        """Return the NEW state reached by playing move from this state.

        Return None if move is not legal here. This state is not changed.
        """
        raise NotImplementedError('Implement apply_move in a subclass')

    def winner(self, player):
        """Return True if player has won the game."""
        raise NotImplementedError('Implement winner in a subclass')

    def possible_next_moves(self):
        """Return a (possibly empty) list of the legal moves from here."""
        raise NotImplementedError('Implement possible_next_moves in a '
                                  'subclass')

    def rough_outcome(self):
        """Return a quick estimate of the outcome for next_player.

        The estimate lies between LOSE and WIN.
        """
        raise NotImplementedError('Implement rough_outcome in a subclass')

    def outcome(self):
        """Return the outcome of this state for next_player.

        WIN if next_player has won, LOSE if the opponent has won, DRAW
        otherwise.
        """
        if self.winner(self.next_player):
            return self.WIN
        if self.winner(self.opponent()):
            return self.LOSE
        return self.DRAW
