"""altNim driver (child side, inside the sandbox): builds states with the LOCKED State class,
calls the student's functions and returns plain data. Standard library only."""

import harness_kit


def _state(num, start_odd, action_state):
    from myAltNimClasses import State

    return State(num, start_odd, action_state)


def _functions():
    return harness_kit.import_student("myAltNimFunctions")


def _plain_state(state):
    from myAltNimClasses import State

    if not isinstance(state, State):
        raise TypeError(f"expected a State, got a {type(state).__name__}")
    return [state.getNumMatchsticks(), state.getStartOdd(), state.getActionState()]


def removals(num, start_odd, action_state):
    return _functions().getRemovals(_state(num, start_odd, action_state))


def apply(num, start_odd, action_state, removal):
    """The successor state, and whether the input state was left unchanged."""
    state = _state(num, start_odd, action_state)
    before = _plain_state(state)
    after = _functions().applyRemoval(state, removal)
    return {"state": _plain_state(after), "input_unchanged": _plain_state(state) == before}


def is_leaf(num, start_odd, action_state):
    return _functions().isLeaf(_state(num, start_odd, action_state))


def evaluate(num, start_odd, action_state, is_max):
    return _functions().eval(_state(num, start_odd, action_state), is_max)


def minimax(num, start_odd, action_state, depth, is_max):
    return _functions().MiniMax(_state(num, start_odd, action_state), depth, is_max)
