"""Subtract Square driver (child side, in the sandbox): calls the student's functions and
returns plain data. Standard library only (and the engine's ``harness_kit``, beside it in the
sandbox); the student's module is imported per call, so an import error is reported with that
call and the student's traceback."""

import harness_kit


def _game():
    return harness_kit.import_student("subtract_square")


def moves(total):
    return _game().moves(total)


def apply(total, amount):
    return _game().apply(total, amount)


def is_over(total):
    return _game().is_over(total)


def winner(total, player):
    return _game().winner(total, player)


def best_move(total):
    return _game().best_move(total)
