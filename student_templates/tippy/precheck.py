"""Check your tippy files before you hand them in.

Run `python3 precheck.py` in the folder holding your files. It runs the
assignment's rule checks (pep8, and the lines changed in game_view.py) and
the public tests of TippyGameState, TippyMove and StrategyMinimax, with the
verdict the instructor's grader gives on those parts. It needs the course's
grading harness installed.
"""

import sys
from pathlib import Path

try:
    from graders.cli import main
except ImportError:
    sys.exit('precheck needs the course grading harness: install it first '
             '(see the handout).')

FOLDER = str(Path(__file__).resolve().parent)
sys.exit(main(['check', '--assignment', 'tippy', FOLDER]))
