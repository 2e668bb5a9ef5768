"""Tippy + minimax (CSC148 Winter 2015 A2): oracle, generator and grader tests (parent side).

``driver.py`` and its helpers ``driver_moves.py`` and ``driver_classes.py`` are the exception:
they are copied into the sandbox and run there, never imported from this package.
"""
