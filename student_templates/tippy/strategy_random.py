"""A strategy that plays any legal move."""
import random

from strategy import Strategy


class StrategyRandom(Strategy):
    """Choose one of the legal moves at random."""

    def suggest_move(self, state):
        """Return a legal move from state, chosen at random.

        state: GameState -- a game that is not over
        """
        return random.choice(state.possible_next_moves())
