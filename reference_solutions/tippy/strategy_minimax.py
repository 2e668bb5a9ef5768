"""The minimax strategy."""
from strategy import Strategy


class StrategyMinimax(Strategy):
    """Choose a move with the highest score the player can guarantee.

    A player's score is 1 for a win, -1 for a loss and 0 for a tie, with
    both players playing their best from then on.
    """

    def suggest_move(self, state):
        """Return a move for state.next_player with the best guaranteed score.

        state: GameState -- a game that is not over
        """
        return best_move_and_score(state)[0]


def best_move_and_score(state):
    """Return (move, score): a best move for state.next_player and the
    score it guarantees. The move is None when the game is over.
    """
    if state.over:
        return None, state.outcome()
    best = (None, state.LOSE - 1)
    for move in state.possible_next_moves():
        score = -best_move_and_score(state.apply_move(move))[1]
        if score > best[1]:
            best = (move, score)
            if score == state.WIN:
                # Nothing beats a win, so the other moves need no look.
                break
    return best
