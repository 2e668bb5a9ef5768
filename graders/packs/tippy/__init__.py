"""Tippy + minimax (CSC148 Winter 2015 A2): oracle, generator and grader tests (parent side).

``driver.py`` is the exception: it is copied into the sandbox and runs there, never imported
from this package.
"""
