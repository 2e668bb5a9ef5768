"""An 'iterative' minimax that calls the recursive strategy's helper for every move."""


def _score(state):
    if not state.get_possible_moves():
        return -1
    return max(-_score(state.make_move(m)) for m in state.get_possible_moves())


def recursive_minimax_strategy(game):
    moves = game.current_state.get_possible_moves()
    return max(moves, key=lambda m: -_score(game.current_state.make_move(m)))


def _best(state):
    return max(state.get_possible_moves(), key=lambda m: -_score(state.make_move(m)))


def iterative_minimax_strategy(game):
    stack = [game.current_state]
    return _best(stack.pop())
