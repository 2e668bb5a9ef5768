"""Tippy + minimax (CSC148 Winter 2015 A2): oracle, generator and grader tests (parent side).

``driver.py`` and its helper ``driver_moves.py`` are the exception: they are copied into the
sandbox and run there, never imported from this package.
"""
