"""Autograder harness for game-search programming assignments.

The engine lives in this package; each assignment is a pack under ``graders/packs/<id>/``.
"""

import logging
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
# The engine logs each stage (graders.gradelog); nothing is printed unless a run asks for it.
logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = ["PACKAGE_DIR"]
