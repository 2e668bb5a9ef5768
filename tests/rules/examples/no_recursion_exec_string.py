"""Recursion defined through exec of a string: the call graph cannot read it."""

import builtins

SOURCE = "def _value(n):\n    return 0 if n == 0 else _value(n - 1)\n"
exec(SOURCE)  # noqa: S102


def iterative_minimax_strategy(game):
    """Scores through a function made from text."""
    made = {}
    builtins.exec(compile(SOURCE, "<string>", "exec"), made)
    return made["_value"](game)
