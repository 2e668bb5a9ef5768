"""Check your work before you upload it: run `python3 precheck.py` in this folder.

It runs the assignment's rule checks and public tests on the files in this folder, with the
same verdict, messages and points the instructor's grader gives for those parts
(`python3 precheck.py FOLDER` checks the files in another folder). See README.txt.
Exit status 0: everything public passes; 1: something to fix.
"""

import os
import sys

# The pre-check's own code needs this (tomllib, StrEnum), whatever your code needs. Said before
# anything else is imported, in a form any Python 3.6 or newer can run.
MINIMUM = (3, 11)
if sys.version_info[:2] < MINIMUM:
    sys.exit(f"The pre-check needs Python {MINIMUM[0]}.{MINIMUM[1]} or newer; this is Python "
             f"{sys.version.split()[0]} ({sys.executable}).\nInstall a newer Python "
             "(python.org), make the .venv with it and install the requirements again (see\n"
             "README.txt), then run the pre-check with that Python.")

from pathlib import Path  # noqa: E402 - after the version check

HERE = Path(__file__).resolve().parent

try:
    # Hypothesis before pytest starts: as a pytest plugin's package it would otherwise be
    # rewritten for pytest's assert messages (about 70 modules, half a second a run), for
    # asserts no check reads.
    import hypothesis  # noqa: F401
    import pytest
except ImportError:
    sys.exit("The pre-check needs pytest and a few other packages: run\n"
             "    python3 -m pip install -r requirements.txt\n"
             "in this folder (see README.txt), then run it again.")

TESTS = HERE / "_precheck" / "packs" / "PACK_ID"

if __name__ == "__main__":
    if len(sys.argv) > 1:  # another folder holding your files
        os.environ["PRECHECK_FOLDER"] = str(Path(sys.argv[1]).resolve())
    sys.exit(pytest.main(["-c", str(HERE / "pytest.ini"), "--rootdir", str(HERE),
                          "-p", "no:terminal", str(TESTS)]))
