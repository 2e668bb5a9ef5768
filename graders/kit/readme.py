"""README.txt of a kit, in plain words."""

from __future__ import annotations

from graders.pack import Pack

TEMPLATE = """{title}: starter kit and pre-check
{underline}

What is in this folder
  - the starter files of the assignment (the ones you hand in: {handed_in}){locked}
  - the public test data the handout gives you
  - precheck.py, which checks your work before you upload it
  - _precheck/, the pre-check's own files (do not edit or hand them in)

How to run the pre-check (Linux, macOS or Windows, Python 3.11 or newer)
  1. Once: install what it needs, in this folder:
         python3 -m venv .venv
         .venv/bin/python -m pip install -r requirements.txt        (Linux, macOS)
         .venv\\Scripts\\python -m pip install -r requirements.txt    (Windows)
  2. Put your files in this folder (replace the starter files), then run:
         .venv/bin/python precheck.py          (Windows: .venv\\Scripts\\python precheck.py)
     or, the same checks as a pytest run:
         .venv/bin/python -m pytest

What it checks
  - the assignment's rule checks ({rules}), exactly as the instructor's grader does;
  - the public tests: {tests}.
  Each check gets one line: PASS, FAIL (with what was expected, what your code gave, and what
  to fix) or ERROR (the pre-check could not run that test; not your fault). A public test shows
  the points it is worth; a broken rule shows the points it takes off.
  It ends with exit status 0 when everything public passes, 1 otherwise.{kept}

What it cannot see
  The instructor also runs hidden tests (other positions, other inputs, your functions against
  the instructor's solution) that are not in this kit. Passing the pre-check means the public
  part of your mark is what it says; it does not promise full marks.

Your code runs on your own computer, in a separate Python process with a time limit, so an
infinite loop is stopped and reported instead of hanging the pre-check.
"""


def readme_text(pack: Pack, public_tests: list[str]) -> str:
    """The README of ``pack``'s kit."""
    spec = pack.declaration
    locked = spec.locked.files
    return TEMPLATE.format(
        title=pack.title,
        underline="=" * (len(pack.title) + 31),
        handed_in=", ".join(spec.submission.files),
        locked=(f"\n  - files you may read but not change (the grader uses its own copy): "
                f"{', '.join(locked)}" if locked else ""),
        rules=", ".join(sorted({rule.name for rule in spec.rules})) or "none for this assignment",
        tests=", ".join(public_tests) or "none",
        kept=(f"\n  What {', '.join(tool.name for tool in spec.tools)} said about a file is kept "
              "in _precheck/kept/: the next run checks\n  only the files you changed (delete "
              "that folder to check everything again).") if spec.tools else "",
    )
