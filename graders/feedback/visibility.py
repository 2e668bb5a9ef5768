"""What a student may see of each grader test (Gradescope's vocabulary).

``[tests] visibility`` in ``assignment.toml`` maps fnmatch patterns over test function names to
``visible`` (shown in full), ``after_due`` (in full once the due date has passed) or
``hidden`` (its name and pass/fail only: never its inputs, expected output or message). The
first matching pattern wins; otherwise a ``@pytest.mark.public`` test is visible and every
other test hidden.
"""

from __future__ import annotations

from datetime import datetime
from fnmatch import fnmatchcase

from graders.pack import Pack
from graders.results import TestOutcome

GRADESCOPE = {"visible": "visible", "after_due": "after_due_date", "hidden": "hidden"}


def visibility_of(pack: Pack, test: TestOutcome) -> str:
    """``visible``, ``after_due`` or ``hidden`` for ``test`` in ``pack``."""
    for pattern, level in pack.declaration.tests.visibility.items():
        if fnmatchcase(test.name, pattern):
            return level
    return "visible" if test.public else "hidden"


def shown_in_full(pack: Pack, test: TestOutcome, due: datetime | None, now: datetime) -> bool:
    """True when the student may read ``test``'s inputs, output and message now."""
    level = visibility_of(pack, test)
    if level == "after_due":
        due = due or pack.declaration.late.due
        return due is not None and now >= due
    return level == "visible"
