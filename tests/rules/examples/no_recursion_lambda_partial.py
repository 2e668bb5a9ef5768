"""Recursion handed over inside a lambda, and inside functools.partial through a helper."""
import functools


def _score(state, next_score):
    return _apply(next_score, state)


def _apply(function, state):
    return function(state)


def _lambda_value(state, again):
    return again(state)


def iterative_minimax_strategy(game):
    first = _lambda_value(game.current_state, lambda s: _lambda_value(s, len))
    second = _score(game.current_state, functools.partial(_score, next_score=len))
    return first, second
