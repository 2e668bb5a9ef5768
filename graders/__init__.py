"""Autograder harness for game-search programming assignments.

The engine lives in this package; each assignment is a pack under ``graders/packs/<id>/``.
"""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent

__all__ = ["PACKAGE_DIR"]
