"""The pytest plugin that runs a pack's grader tests over a whole batch in ONE session.

Submissions are parameters of the ``submission`` fixture; items are ordered by submission so
that each student's sandboxed worker is started once, reused by all their tests, and closed
before the next student's. Outcomes are kept in ``config.stash`` and classified as the
student's failure (an ``AssertionError``, including every :class:`StudentFault`) or a grader
error (anything else), which never costs marks.
"""

from __future__ import annotations

import shutil
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from graders.errors import GraderError
from graders.packs import Pack
from graders.results import TestOutcome
from graders.sandbox import RunResult, Sandbox, Worker
from graders.submissions import Submission
from graders.tools import tool_of

STATE = pytest.StashKey["GradingState"]()


@dataclass
class GradingState:
    """What one grading session knows: kept in ``config.stash``."""

    pack: Pack
    sandbox: Sandbox
    submissions: list[Submission]
    public_only: bool
    reference_workspace: Path | None
    on_done: Callable[[Submission, list[TestOutcome]], None]
    outcomes: dict[str, list[TestOutcome]] = field(default_factory=dict)
    workers: dict[tuple[str, str], Worker] = field(default_factory=dict)
    finished: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    memos: dict[str, dict[str, Any]] = field(default_factory=dict)
    batch_memo: dict[str, Any] = field(default_factory=dict)

    def worker(self, key: str, workspace: Path, label: str) -> Worker:
        if (label, key) not in self.workers:
            self.workers[(label, key)] = self.sandbox.worker(
                workspace, self.pack.driver, self.pack.limits, label
            )
        return self.workers[(label, key)]

    def close_workers(self, label: str | None = None) -> None:
        for key in [k for k in self.workers if label is None or k[0] == label]:
            self.workers.pop(key).close()

    def finish(self, submission: Submission) -> None:
        if submission.id in self.finished:
            return
        self.finished.add(submission.id)
        self.memos.pop(submission.id, None)
        # Runs in pytest's teardown: an exception here would leave pytest's setup state broken
        # and fail the NEXT student's first test, so nothing may escape.
        try:
            self.close_workers(submission.id)
        except Exception as exc:  # noqa: BLE001
            self.problems.append(f"closing the workers of {submission.id} failed: {exc!r}")
        try:
            self.on_done(submission, self.outcomes.get(submission.id, []))
        except Exception as exc:  # noqa: BLE001
            self.problems.append(f"finishing {submission.id} failed: {exc!r}")


class GradingPlugin:
    """Registered with ``pytest.main(..., plugins=[GradingPlugin(state)])``."""

    def __init__(self, state: GradingState) -> None:
        self.state = state

    # -- configuration ---------------------------------------------------------------------
    def pytest_configure(self, config: pytest.Config) -> None:
        config.stash[STATE] = self.state
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

    # -- fixtures --------------------------------------------------------------------------
    @pytest.fixture
    def pack(self) -> Pack:
        return self.state.pack

    @pytest.fixture
    def student(self, submission: Submission) -> Worker:
        """The sandboxed worker on this student's workspace."""
        return self.state.worker("student", submission.workspace, submission.id)

    @pytest.fixture
    def reference(self) -> Worker:
        """The sandboxed worker on the reference solution (hidden: not in `grade check`)."""
        workspace = self._hidden("reference")
        return self.state.worker("reference", workspace, "__reference__")

    @pytest.fixture
    def make_worker(self, submission: Submission) -> Callable[..., Worker]:
        """A worker on a mix: the student's workspace with ``reference`` files from the
        reference solution copied over it (e.g. the student's strategy on the reference game).

        ``student`` names the student's files the mix is for and, with ``label``, tells workers
        apart: two calls with different labels get two separate interpreters on the same mix.
        """

        def build(
            student: tuple[str, ...] | list[str] = (),
            reference: tuple[str, ...] | list[str] = (),
            *,
            label: str = "",
        ) -> Worker:
            reference_dir = self._hidden("mixed workspaces")
            mix = ",".join(sorted(reference))
            key = f"mix:{label}:{','.join(sorted(student))}|{mix}"
            folder = submission.workspace.parent / f"{submission.slug}.mix-{abs(hash(mix))}"
            if not folder.exists():
                _build_mix(folder, submission.workspace, reference_dir, list(reference))
            return self.state.worker(key, folder, submission.id)

        return build

    @pytest.fixture
    def run_program(self, submission: Submission) -> Callable[..., RunResult]:
        """Run a command once in a fresh sandbox on the student's (or reference) workspace.

        ``inputs`` names hidden files of ``fixtures/<id>/inputs/`` copied into that run's
        scratch copy only (e.g. a hidden test script); a public test may not use them."""

        def run(
            argv: list[str],
            stdin: str = "",
            timeout: float | None = None,
            workspace: str = "student",
            inputs: tuple[str, ...] | list[str] = (),
        ) -> RunResult:
            folder = submission.workspace if workspace == "student" else self._hidden("reference")
            if inputs:
                self._hidden("hidden inputs")
            extra = {name: self.state.pack.fixtures_dir / "inputs" / name for name in inputs}
            return self.state.sandbox.run(
                folder, argv, self.state.pack.limits, stdin=stdin, timeout=timeout, extra=extra
            )

        return run

    @pytest.fixture
    def run_tool(self, submission: Submission) -> Callable[..., RunResult]:
        """Run a declared pack tool (``[[tools]]``) in a fresh sandbox.

        ``script`` is a child-side helper of the pack (a ``driver_*.py`` file, read-only at
        /harness), run by the tool environment's interpreter in isolated mode with ``args``,
        on the student's workspace or, with ``workspace="starter"``, on the starter kit.
        A tool that is not installed is a grader error naming the command that installs it.
        """

        def run(
            name: str, script: str, args: Sequence[str] = (), workspace: str = "student"
        ) -> RunResult:
            state = self.state
            tool = tool_of(state.pack, name)
            problem = tool.problem()
            if problem:
                raise GraderError(problem)
            folder = state.pack.templates_dir if workspace == "starter" else submission.workspace
            return state.sandbox.run(
                folder,
                tool.command(script, args),
                tool.limits(state.pack.limits),
                harness=state.sandbox.harness_for(state.pack.driver),
                tools={name: tool.home},
            )

        return run

    @pytest.fixture
    def memo(self, submission: Submission) -> dict[str, Any]:
        """What one student's tests share (say, one slow tool run read by several test
        cases); dropped when the student is finished."""
        return self.state.memos.setdefault(submission.id, {})

    @pytest.fixture
    def batch_memo(self) -> dict[str, Any]:
        """What every student's tests share in this session (say, a tool run on the starter)."""
        return self.state.batch_memo

    @pytest.fixture
    def golden(self) -> Callable[[str], str]:
        def read(name: str) -> str:
            self._hidden("golden files")
            path = self.state.pack.golden_dir / name
            if not path.is_file():
                raise GraderError(
                    f"golden file {path} is missing: run `grade golden {self.state.pack.id}`"
                )
            return path.read_text(encoding="utf-8")

        return read

    @pytest.fixture
    def public_file(self) -> Callable[[str], str]:
        return self.state.pack.template_text

    def _hidden(self, what: str) -> Path:
        if self.state.public_only or self.state.reference_workspace is None:
            raise GraderError(f"a public test used {what}; public tests may not (pack bug)")
        return self.state.reference_workspace


def _build_mix(folder: Path, student: Path, reference: Path, from_reference: list[str]) -> None:
    shutil.copytree(student, folder)
    for name in from_reference:
        shutil.copyfile(reference / name, folder / name)


def _submission_of(item: pytest.Item | None) -> Submission | None:
    callspec = getattr(item, "callspec", None)
    value = callspec.params.get("submission") if callspec else None
    return value if isinstance(value, Submission) else None


def _case_id(item: pytest.Item) -> str:
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return ""
    parts = callspec.id.split("-")
    submission = _submission_of(item)
    slug = submission.slug if submission else ""
    return "-".join(part for part in parts if part != slug) if slug else callspec.id


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
        )
    detail = "".join(traceback.format_exception(exc)) if exc else str(report.longrepr)
    return replace(
        result,
        outcome="error",
        message=f"grader error: {exc!r}",
        details={"kind": "grader-error", "traceback": detail[-6000:]},
    )


def _raised_by_pytest(exc: BaseException) -> bool:
    """An AssertionError from pytest's or pluggy's own code (a broken session) is a grader
    error, never the student's failure."""
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and any(part in frames[-1].filename for part in ("/_pytest/", "/pluggy/"))


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
