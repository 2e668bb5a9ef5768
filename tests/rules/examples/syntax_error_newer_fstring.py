"""A tippy-style board printer written on Python 3.12: the f-string reuses its quote."""


def describe(state):
    return f"Player {state["player"]} to move on a {state["size"]}x{state["size"]} board"
