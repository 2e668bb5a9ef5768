"""Check your stonehenge.py, strategy.py and game_interface.py before you upload them.

Run `python3 precheck.py` in the folder holding your files. It runs the assignment's rule
checks and the public tests (boards, rules, repr, rough_outcome, minimax on subtract square,
style), exactly as the instructor's grader does for those parts. It needs the course's
grading harness installed (`pip install graders`), and for the style tests the harness's own
python_ta environment (`grade setup stonehenge`, once).
"""

import sys
from pathlib import Path

try:
    from graders.cli import main
except ImportError:
    sys.exit("precheck needs the course grading harness: pip install it first (see the handout).")

sys.exit(main(["check", "--assignment", "stonehenge", str(Path(__file__).resolve().parent)]))
