# mypy: ignore-errors
"""Makes `python3 -m pytest` in this folder run the pre-check (same as `python3 precheck.py`)."""

import os
from pathlib import Path

from _precheck.main import KitSession, as_json, report

KIT = Path(__file__).resolve().parent
SESSION = []


def pytest_configure(config):
    session = KitSession(Path(os.environ.get("PRECHECK_FOLDER") or KIT))
    SESSION.append(session)
    session.attach(config)


def pytest_deselected(items):
    # -k, -m or --deselect left public tests out: no verdict on them (the hidden tests the
    # grading plugin leaves out of every pre-check are not public)
    if SESSION:
        SESSION[0].left_out += sum(1 for item in items if item.get_closest_marker("public"))


def pytest_collection_finish(session):
    if SESSION:
        SESSION[0].collected = len(session.items)


def pytest_runtest_logfinish(nodeid, location):
    if SESSION:
        SESSION[0].finished += 1


def pytest_sessionfinish(session, exitstatus):
    if not SESSION:
        return
    if int(exitstatus) == 2:  # interrupted (Ctrl-C): the tests not run have no outcome
        SESSION[0].interrupted = True
    if int(exitstatus) in (0, 1, 5):
        session.exitstatus = 0 if SESSION[0].passed() else 1


def pytest_unconfigure(config):
    if SESSION:
        print("\n" + report(SESSION[0]), flush=True)
        if os.environ.get("PRECHECK_JSON"):  # the same verdict as data, for tools and tests
            Path(os.environ["PRECHECK_JSON"]).write_text(as_json(SESSION[0]), encoding="utf-8")
        SESSION.pop().close()
