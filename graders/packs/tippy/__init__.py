"""Tippy + minimax (CSC148 Winter 2015 A2); the driver*.py files run in the sandbox only."""
