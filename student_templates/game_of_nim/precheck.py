"""Check your game_of_nim.py before you upload it.

Run `python3 precheck.py` in the folder holding your files. It runs the public tests (the
initial state and move order of the handout's boards, result, terminal_test, utility, the
[2, 1] rule probe and the handout's sample game in handout.transcript), exactly as the
instructor's grader does for those parts. It needs the course's grading harness installed
(`pip install graders`).
"""

import sys
from pathlib import Path

try:
    from graders.cli import main
except ImportError:
    sys.exit("precheck needs the course grading harness: pip install it first (see the handout).")

sys.exit(main(["check", "--assignment", "game_of_nim", str(Path(__file__).resolve().parent)]))
