"""Prove feedback pages leak nothing hidden: scan them for hidden inputs and expected output.

Hidden material is every line of the pack's golden files and hidden inputs
(``fixtures/<id>/golden``, ``fixtures/<id>/inputs``), and of what hidden tests said on a
student's result: their expected values and inputs (details keys such as ``expected``,
``left``, ``input``), their messages (less what quotes the student's own output or
traceback, which is theirs), and their case parameters. A line also found in, or quoted by,
public material (the starter kit, the student's own files, what visible tests showed,
criteria, notes and rule messages) is not secret. Short lines are skipped: they are too
common (``True``, ``0``) to tell anything.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from pathlib import Path

from graders.feedback.visibility import shown_in_full
from graders.pack import Pack
from graders.results import SubmissionResult, TestOutcome

MIN_LENGTH = 12
MIN_CASE = 6


def _lines(text: str) -> set[str]:
    return {" ".join(line.split()) for line in text.splitlines()} - {""}


def _tree_lines(folder: Path) -> set[str]:
    found: set[str] = set()
    if folder.is_dir():
        for path in folder.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                found |= _lines(path.read_text(encoding="utf-8", errors="replace"))
    return found


SECRET_KEYS = {"expected", "left", "input", "inputs", "want", "args", "state", "position"}
STUDENT_KEYS = {"got", "right", "actual", "traceback", "stderr", "stdout", "type", "exit_status"}


def _test_lines(test: TestOutcome) -> set[str]:
    """Every line a test could show (for visible tests: all of it is public)."""
    return _lines(test.message) | {" ".join(str(v).split()) for v in _values(test.details)} | {
        line for v in _values(test.details) for line in _lines(str(v))
    }


def _hidden_lines(test: TestOutcome) -> set[str]:
    """What a hidden test knows that the student must not: expected values, inputs, and the
    lines of its message that do not quote the student's own output."""
    theirs = " ".join(" ".join(str(v).split()) for v in _keyed(test.details, STUDENT_KEYS))
    secret = {line for v in _keyed(test.details, SECRET_KEYS) for line in _lines(str(v))}
    return secret | {line for line in _lines(test.message) if line not in theirs}


def _values(value: object) -> list[object]:
    if isinstance(value, dict):
        return [v for item in value.values() for v in _values(item)]
    if isinstance(value, list | tuple):
        return [v for item in value for v in _values(item)]
    return [value]


def _keyed(value: object, keys: set[str]) -> list[object]:
    """The values stored under ``keys`` anywhere in ``value``."""
    if isinstance(value, dict):
        return [v for key, item in value.items()
                for v in (_values(item) if key in keys else _keyed(item, keys))]
    if isinstance(value, list | tuple):
        return [v for item in value for v in _keyed(item, keys)]
    return []


def secrets_of(pack: Pack, result: SubmissionResult, now: datetime | None = None) -> set[str]:
    """What must not appear in ``result``'s feedback page."""
    now = now or datetime.now(UTC)
    hidden = _tree_lines(pack.golden_dir) | _tree_lines(pack.fixtures_dir / "inputs")
    public = _tree_lines(pack.templates_dir)
    for text in result.files.values():
        public |= _lines(text)
    cases: set[str] = set()
    for test in result.tests:
        if shown_in_full(pack, test, None, now):
            public |= _test_lines(test) | {test.case, test.name}
        else:
            hidden |= _hidden_lines(test)
            cases.add(test.case)
    public |= _shown_by_design(pack, result)
    known = "\n".join(public)  # a secret quoted inside public text is not secret
    found = {line for line in hidden - public if len(line) >= MIN_LENGTH}
    found |= {case for case in cases - public if len(case) >= MIN_CASE}
    return {secret for secret in found if secret not in known}


def _shown_by_design(pack: Pack, result: SubmissionResult) -> set[str]:
    """What the page shows on purpose: criteria, notes, deductions, rule messages."""
    shown: set[str] = set()
    for criterion in pack.declaration.criteria:
        shown |= _lines(criterion.title) | _lines(criterion.handout)
    for mark in result.criteria:
        shown |= _lines(mark.title) | {" ".join(note.split()) for note in mark.notes}
    for deduction in result.deductions:
        shown |= _lines(deduction.reason)
    for violation in result.violations:
        shown |= _lines(violation.message) | _lines(violation.fix or "")
        shown |= _lines(violation.source_line or "")
    return shown


def page_text(path: Path) -> str:
    """The page's text as a reader sees it (entities decoded, spacing collapsed)."""
    raw = path.read_text(encoding="utf-8")
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", raw)).split()) + " " + " ".join(
        html.unescape(raw).split()
    )


def leaks(pack: Pack, page: Path, result: SubmissionResult) -> list[str]:
    """Each secret of ``result`` found in its feedback ``page`` (empty: nothing leaked)."""
    text = page_text(page)
    return sorted(secret for secret in secrets_of(pack, result) if secret in text)
