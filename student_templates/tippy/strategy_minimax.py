"""The minimax strategy."""
from strategy import Strategy


class StrategyMinimax(Strategy):
    """Choose a move with the highest score the player can guarantee."""

    def suggest_move(self, state):
        """Return a move for state.next_player with the best guaranteed score.

        state: GameState -- a game that is not over
        """
        raise NotImplementedError('Write StrategyMinimax')
