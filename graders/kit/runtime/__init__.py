# mypy: ignore-errors
"""The pre-check's private, read-only copy of the grading engine (written by `grade kit`).

Nothing here is meant to be edited: `grade kit` generates it from the engine's own code.
"""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
