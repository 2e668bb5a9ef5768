"""An 'iterative' minimax that recurses through a function passed as a parameter."""


def _value(state, again):
    if not state.get_possible_moves():
        return -1
    return max(-again(state.make_move(m), again) for m in state.get_possible_moves())


def iterative_minimax_strategy(game):
    stack = [game.current_state]
    return _value(stack.pop(), _value)
