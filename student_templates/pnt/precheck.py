"""Check your pnt.py before you upload it.

Run `python3 precheck.py` in the folder holding pnt.py. It runs your program on the three
official test cases and the handout's sample, and reads its output exactly as the
instructor's grader does (field by field). It needs the course's grading harness installed
(`pip install graders`).
"""

import sys
from pathlib import Path

try:
    from graders.cli import main
except ImportError:
    sys.exit("precheck needs the course grading harness: pip install it first (see the handout).")

sys.exit(main(["check", "--assignment", "pnt", str(Path(__file__).resolve().parent)]))
