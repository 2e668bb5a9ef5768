"""The pytest plugin that runs a pack's grader tests over a whole batch in ONE session.

Submissions are parameters of the ``submission`` fixture; items are ordered by submission so
that each student's sandboxed worker is started once, reused by all their tests, and closed
before the next student's. The plugin only COLLECTS outcomes (in the state kept in
``config.stash``), classified as the student's failure (an ``AssertionError``, including every
:class:`StudentFault`) or a grader error (anything else), which never costs marks; marking and
writing happen in the batch, after the session. The fixtures live in :mod:`graders.fixtures`.
"""

from __future__ import annotations

import importlib.util
import os
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis.configuration import set_hypothesis_home_dir

from graders import observe
from graders.pack import Pack
from graders.results import TestOutcome
from graders.sandbox import Sandbox, Worker
from graders.submissions import Submission
from graders.testing import hypothesis_home

STATE = pytest.StashKey["GradingState"]()
# What a shell may set for its own pytest runs: extra options (`-x` would stop each student's
# tests at their first failure) and plugins to load. None of it reaches a grading session.
SHELL_SETTINGS = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")
# The installed plugins a session uses, loaded by name: no other plugin installed beside
# pytest (pytest-randomly would reorder and reseed the tests) is loaded.
SESSION_PLUGINS = ("pytest_timeout", "_hypothesis_pytestplugin")


@contextmanager
def own_session(plugins: tuple[str, ...] = SESSION_PLUGINS) -> Iterator[list[str]]:
    """While a grading session runs: no pytest setting of the shell, no plugin pytest would
    find by itself. Yields the options that load ``plugins`` (those installed)."""
    saved = {name: os.environ.pop(name) for name in SHELL_SETTINGS if name in os.environ}
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    try:
        yield [option for name in plugins if importlib.util.find_spec(name)
               for option in ("-p", name)]
    finally:
        os.environ.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)
        os.environ.update(saved)


@dataclass
class GradingState:
    """What one grading session knows: kept in ``config.stash``."""

    pack: Pack
    sandbox: Sandbox
    submissions: list[Submission]
    public_only: bool
    reference_workspace: Path | None
    outcomes: dict[str, list[TestOutcome]] = field(default_factory=dict)
    workers: dict[tuple[str, str], Worker] = field(default_factory=dict)
    finished: set[str] = field(default_factory=set)
    problems: dict[str, list[str]] = field(default_factory=dict)  # grader problems by student
    memos: dict[str, dict[str, Any]] = field(default_factory=dict)
    batch_memo: dict[str, Any] = field(default_factory=dict)
    # The reference driver's answers, by call: kept by the process for every share of one
    # pack (graders.kept), since they are the pack's and not a student's.
    reference_answers: dict[str, Any] = field(default_factory=dict)
    # The pack's test modules that failed to import: a pack bug, every student's grader error.
    collection_errors: list[str] = field(default_factory=list)

    def worker(self, key: str, workspace: Path, label: str) -> Worker:
        if (label, key) not in self.workers:
            self.workers[(label, key)] = self.sandbox.worker(
                workspace, self.pack.driver, self.pack.limits, label
            )
            if os.environ.get(observe.ENV):
                observe.watch_worker(self.workers[(label, key)], label, key)
        return self.workers[(label, key)]

    def close_workers(self, label: str | None = None) -> None:
        for key in [k for k in self.workers if label is None or k[0] == label]:
            self.workers.pop(key).close()

    def finish(self, submission: Submission) -> None:
        """The student's tests are over: close their workers (nothing is marked here)."""
        if submission.id in self.finished:
            return
        self.finished.add(submission.id)
        self.memos.pop(submission.id, None)
        # Runs in pytest's teardown: an exception here would leave pytest's setup state broken
        # and fail the NEXT student's first test, so nothing may escape.
        try:
            self.close_workers(submission.id)
        except Exception as exc:  # noqa: BLE001
            self.problems.setdefault(submission.id, []).append(
                f"closing the sandboxed workers failed: {exc!r}"
            )


class GradingPlugin:
    """Registered with ``pytest.main(..., plugins=[GradingPlugin(state)])``."""

    def __init__(self, state: GradingState) -> None:
        self.state = state

    # -- configuration ---------------------------------------------------------------------
    def pytest_configure(self, config: pytest.Config) -> None:
        config.stash[STATE] = self.state
        # A pack module that fails to import is a grader error whose report is pytest's: a
        # plain traceback (the long one reads and parses the source of every frame).
        config.option.tbstyle = "native"
        set_hypothesis_home_dir(hypothesis_home())
        config.addinivalue_line("markers", "public: runs in the student pre-check (`grade check`)")

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "submission" in metafunc.fixturenames:
            subs = self.state.submissions
            metafunc.parametrize("submission", subs, ids=[s.slug for s in subs])

    def pytest_collection_modifyitems(
        self, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        if self.state.public_only:
            keep = [item for item in items if item.get_closest_marker("public")]
            config.hook.pytest_deselected(items=[i for i in items if i not in keep])
            items[:] = keep
        order = {s.id: index for index, s in enumerate(self.state.submissions)}
        def position(item: pytest.Item) -> int:
            submission = _submission_of(item)
            return order.get(submission.id, -1) if submission else -1

        items.sort(key=position)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        # From here only the exception reaches a result (see _classify): a failing test's
        # report is its message alone. Formatting every failing test's traceback cost a pack
        # of 189 tests a student about 50 ms of grader CPU a submission.
        session.config.option.tbstyle = "value"

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.state.collection_errors.append(
                f"{report.nodeid or 'collection'}: {report.longreprtext[-1500:]}")

    # -- outcomes --------------------------------------------------------------------------
    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]):
        report = yield
        submission = _submission_of(item)
        if submission is None:
            return report
        if call.when == "call" or (call.when == "setup" and call.excinfo is not None):
            outcome = _classify(item, call, report)
            self.state.outcomes.setdefault(submission.id, []).append(outcome)
        return report

    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None) -> None:
        current = _submission_of(item)
        following = _submission_of(nextitem) if nextitem else None
        if current is not None and (following is None or following.id != current.id):
            self.state.finish(current)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        for submission in self.state.submissions:
            self.state.finish(submission)
        self.state.close_workers()


def _submission_of(item: pytest.Item | None) -> Submission | None:
    callspec = getattr(item, "callspec", None)
    value = callspec.params.get("submission") if callspec else None
    return value if isinstance(value, Submission) else None


def _case_id(item: pytest.Item) -> str:
    """The test's parameter case without the submission: the ids pytest made for the other
    parameters. Never split on ``-``: a student id like ``smith-john`` holds one."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return ""
    submission = _submission_of(item)
    ids = list(getattr(callspec, "_idlist", [callspec.id]))
    if submission is not None and submission.slug in ids:
        ids.remove(submission.slug)
    return "-".join(ids)


def _classify(
    item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport
) -> TestOutcome:
    """Passed, skipped, the student's failure (an AssertionError), or a grader error."""
    result = TestOutcome(
        name=getattr(item, "originalname", item.name),
        case=_case_id(item),
        outcome="passed",
        public=item.get_closest_marker("public") is not None,
        seconds=round(call.duration, 3),
    )
    if report.passed:
        return result
    exc = _unwrap(call.excinfo.value) if call.excinfo else None
    if report.skipped:
        return replace(result, outcome="skipped", message=str(exc or ""))
    if isinstance(exc, AssertionError) and not _raised_by_pytest(exc):
        return replace(
            result,
            outcome="failed",
            message=_message(exc),
            details=dict(getattr(exc, "details", {}) or {}),
            causes=_causes(exc),
        )
    detail = "".join(traceback.format_exception(exc)) if exc else str(report.longrepr)
    return replace(
        result,
        outcome="error",
        message=f"grader error: {exc!r}",
        details={"kind": "grader-error", "traceback": detail[-6000:]},
    )


def _causes(exc: BaseException) -> dict[str, str]:
    """The kinds of difference a failing check named (``Mismatch.causes``), as plain text."""
    found = getattr(exc, "causes", None)
    if not isinstance(found, dict):
        return {}
    return {str(kind): str(words) for kind, words in found.items()}


def _raised_by_pytest(exc: BaseException) -> bool:
    """An AssertionError from pytest's or pluggy's own code (a broken session) is a grader
    error, never the student's failure."""
    last = exc.__traceback__
    while last is not None and last.tb_next is not None:
        last = last.tb_next
    if last is None:
        return False
    filename = last.tb_frame.f_code.co_filename  # not extract_tb: it reads every frame's source
    return any(part in filename for part in ("/_pytest/", "/pluggy/"))


def _unwrap(exc: BaseException) -> BaseException:
    """Hypothesis reports several distinct failures, or a failure that changed on replay, as an
    exception group; when every member is the student's fault, so is the group."""
    if isinstance(exc, BaseExceptionGroup):
        members = [_unwrap(member) for member in exc.exceptions]
        if members and all(isinstance(m, AssertionError) for m in members):
            return members[0]
    return exc


def _message(exc: BaseException) -> str:
    text = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    notes = [n for n in getattr(exc, "__notes__", []) if n.startswith("Falsifying")]
    return "\n".join([text.split("\nassert ")[0], *notes])[:4000]


__all__ = ["STATE", "GradingPlugin", "GradingState"]
