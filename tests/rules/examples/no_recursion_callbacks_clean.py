"""Functions passed as values without any recursion: a key function and a plain callback."""


def _score(state):
    return len(state.get_possible_moves())


def _best(states, score):
    return max(states, key=score)


def iterative_minimax_strategy(game):
    stack = [game.current_state]
    best = _best(stack, _score)
    return sorted(stack, key=lambda s: _score(s)), best
