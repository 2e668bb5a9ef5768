"""The fixtures a pack's grader tests ask for; registered with the grading plugin.

Every fixture reads the session's :class:`~graders.plugin.GradingState` from ``config.stash``;
hidden material (the reference, golden files, hidden inputs) is refused to public tests.

Generated cases: ``@pytest.mark.cases(make, *args, ids=label, **kwargs)`` parametrises a test's
``case`` argument with ``make(*args, **kwargs)`` (say, ``generate.games``), made at collection
(never at import) and once per process (:func:`generated`); each case's id is
``label(case)`` and its index, taken from the case itself.
"""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from graders import kept, observe
from graders.errors import GraderError
from graders.pack import Pack
from graders.plugin import STATE, GradingState
from graders.sandbox import RunResult, Sandbox, Worker
from graders.submissions import Submission
from graders.testing import TextMode, expect_program_output
from graders.tools import tool_of

CASES = "cases"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{CASES}(make, *args, ids=label, **kwargs): the test's "
                            "`case` is each of make(*args, **kwargs), with id label(case)-index")


def generated(make: Callable[..., Sequence[Any]], *args: Hashable,
              **kwargs: Hashable) -> tuple[Any, ...]:
    """``make(*args, **kwargs)`` as a tuple, made once per process (:func:`graders.kept.shared`:
    a seeded generator always gives the same cases, so every student and every test of a batch
    share them: a test reads a case, never changes it)."""
    return tuple(kept.shared(make, *args, **kwargs))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise ``case`` from the test's ``cases`` mark (see the module docstring)."""
    mark = metafunc.definition.get_closest_marker(CASES)
    if mark is None:
        return
    options = dict(mark.kwargs)
    label: Callable[[Any], str] = options.pop("ids")
    made = generated(*mark.args, **options)
    metafunc.parametrize("case", made,
                         ids=[f"{label(case)}-{index}" for index, case in enumerate(made)])


@pytest.fixture
def grading_state(request: pytest.FixtureRequest) -> GradingState:
    """The session's grading grading_state."""
    return request.config.stash[STATE]


@pytest.fixture
def pack(grading_state: GradingState) -> Pack:
    return grading_state.pack


@pytest.fixture
def student(grading_state: GradingState, submission: Submission) -> Worker:
    """The sandboxed worker on this student's workspace."""
    return grading_state.worker("student", submission.workspace, submission.id)


class KeptReference:
    """The reference solution's driver, asked through the answers kept per grading process and
    pack (:mod:`graders.kept`): ``call(op, *args, **kwargs)`` is the worker's answer, asked
    once for every student of the batch, a fresh copy each time (a test may change what it
    gets). The reference's operations answer their arguments (the worker keeps no state a
    test relies on between calls); ``worker`` is the sandboxed worker itself."""

    def __init__(self, grading_state: GradingState) -> None:
        self.grading_state = grading_state

    @property
    def worker(self) -> Worker:
        return self.grading_state.worker(
            "reference", hidden(self.grading_state, "reference"), "__reference__")

    def call(self, op: str, *args: Any, stdin: str | None = None, **kwargs: Any) -> Any:
        """The reference driver's answer to ``op`` (``stdin``, when given, is part of the
        question); an answer that is an error is not kept."""
        extra = {} if stdin is None else {"stdin": stdin}
        key = "reference_call:" + json.dumps([op, args, {**kwargs, **extra}], sort_keys=True,
                                             default=repr)
        answers = self.grading_state.reference_answers
        if key not in answers:
            answers[key] = self.worker.call(op, *args, stdin=stdin, **kwargs)
        return copy.deepcopy(answers[key])


@pytest.fixture
def reference(grading_state: GradingState) -> KeptReference:
    """The reference solution's driver, its answers kept (:class:`KeptReference`; hidden: not
    in `grade check`)."""
    hidden(grading_state, "reference")
    return KeptReference(grading_state)


@pytest.fixture
def reference_call(grading_state: GradingState) -> Callable[..., Any]:
    """``reference_call(op, *args, **kwargs)``: the reference driver's answer to ``op``, asked
    once per grading process and pack (:mod:`graders.kept`) and shared by every student's
    tests (a fresh copy each time, so a test may change what it gets). Hidden, as
    ``reference`` is."""

    return KeptReference(grading_state).call


@pytest.fixture
def make_worker(grading_state: GradingState, submission: Submission) -> Callable[..., Worker]:
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
        reference_dir = hidden(grading_state, "mixed workspaces")
        mix = ",".join(sorted(reference))
        key = f"mix:{label}:{','.join(sorted(student))}|{mix}"
        folder = submission.workspace.parent / f"{submission.slug}.mix-{abs(hash(mix))}"
        if not folder.exists():
            _build_mix(folder, submission.workspace, reference_dir, list(reference))
        return grading_state.worker(key, folder, submission.id)

    return build


@pytest.fixture
def run_program(grading_state: GradingState, submission: Submission) -> Callable[..., RunResult]:
    """Run a command once on a fresh copy of the student's (or reference) workspace: a
    ``python3 prog.py`` run is a child of the workspace's program server, anything else a
    fresh sandbox (:meth:`graders.sandbox.Sandbox.run`).

    ``inputs`` names hidden files of ``fixtures/<id>/inputs/`` copied into that run's
    scratch copy only (e.g. a hidden test script); a public test may not use them."""

    def run(
        argv: list[str],
        stdin: str = "",
        timeout: float | None = None,
        workspace: str = "student",
        inputs: tuple[str, ...] | list[str] = (),
    ) -> RunResult:
        folder = (
            submission.workspace if workspace == "student" else hidden(grading_state, "reference")
        )
        if inputs:
            hidden(grading_state, "hidden inputs")
        extra = {name: grading_state.pack.fixtures_dir / "inputs" / name for name in inputs}
        result = grading_state.sandbox.run(
            folder, argv, grading_state.pack.limits, stdin=stdin, timeout=timeout, extra=extra
        )
        if workspace == "student":
            observe.note_run(submission.id, argv, stdin, result)
        return result

    return run


@pytest.fixture
def run_tool(grading_state: GradingState, submission: Submission) -> Callable[..., RunResult]:
    """Run a declared pack tool (``[[tools]]``) in a fresh sandbox.

    ``script`` is a child-side helper of the pack (a ``driver_*.py`` file) or an engine runner
    (``pyta_runner.py``, see ``graders.sandbox.HARNESS_MODULES``), read-only at /harness, run
    by the tool environment's interpreter in isolated mode with ``args``, on the student's
    workspace or, with ``workspace="starter"``, on the starter kit.
    A tool that is not installed is a grader error naming the command that installs it.
    """

    def run(
        name: str, script: str, args: Sequence[str] = (), workspace: str = "student"
    ) -> RunResult:
        tool = tool_of(grading_state.pack, name)
        problem = tool.problem()
        if problem:
            raise GraderError(problem)
        starter = workspace == "starter"
        folder = grading_state.pack.templates_dir if starter else submission.workspace
        return grading_state.sandbox.run(
            folder,
            tool.command(script, args),
            tool.limits(grading_state.pack.limits),
            harness=grading_state.sandbox.harness_for(grading_state.pack.driver),
            tools={name: tool.home},
        )

    return run


@pytest.fixture
def run_tool_over(grading_state: GradingState) -> Callable[..., RunResult]:
    """Run a declared pack tool ONCE over several students' workspaces (a tool that only
    reads code, say a linter: its start-up is paid once per session, not per student); see
    :func:`tool_over`."""

    def run(name: str, script: str, args: Sequence[str], folders: Mapping[str, Path]) -> RunResult:
        return tool_over(grading_state.pack, grading_state.sandbox, name, script, args, folders)

    return run


def tool_over(
    pack: Pack, sandbox: Sandbox, name: str, script: str, args: Sequence[str],
    folders: Mapping[str, Path],
) -> RunResult:
    """Tool ``name`` run once on ``folders`` (folder name -> workspace): each workspace is
    copied whole into that folder of one fresh sandbox, and the tool starts in their parent
    with ``args``. The tool's own limits hold for the whole run (a file that stalls the tool
    costs one limit per run, not one per student): what a stopped run did not reach is the
    caller's to run student by student."""
    tool = tool_of(pack, name)
    problem = tool.problem()
    if problem:
        raise GraderError(problem)
    first = next(iter(folders.values()))
    chunk = Path(tempfile.mkdtemp(prefix=f"chunk-{name}-", dir=first.parent))
    try:
        for folder, workspace in folders.items():
            shutil.copytree(workspace, chunk / folder, symlinks=True)
        return sandbox.run(chunk, tool.command(script, args), tool.limits(pack.limits),
                           harness=sandbox.harness_for(pack.driver), tools={name: tool.home})
    finally:
        shutil.rmtree(chunk, ignore_errors=True)


@pytest.fixture
def memo(grading_state: GradingState, submission: Submission) -> dict[str, Any]:
    """What one student's tests share (say, one slow tool run read by several test
    cases). Lifetime: one student; dropped when their last test is over."""
    return grading_state.memos.setdefault(submission.id, {})


@pytest.fixture
def batch_memo(grading_state: GradingState) -> dict[str, Any]:
    """What every student's tests share (say, a tool run on the starter). Lifetime: the
    grading session (one ``pytest.main`` over a batch or a share of one), never longer."""
    return grading_state.batch_memo


@pytest.fixture
def golden(grading_state: GradingState) -> Callable[[str], str]:
    """``golden(name)``: the text of a hidden golden file of the pack."""

    def read(name: str) -> str:
        hidden(grading_state, "golden files")
        path = grading_state.pack.golden_dir / name
        if not path.is_file():
            raise GraderError(
                f"golden file {path} is missing: run `grade golden {grading_state.pack.id}`"
            )
        return path.read_text(encoding="utf-8")

    return read


@pytest.fixture
def public_file(grading_state: GradingState) -> Callable[[str], str]:
    """``public_file(name)``: the text of a file of the public starter kit."""
    return grading_state.pack.template_text


@pytest.fixture
def expect_golden(
    pack: Pack,
    run_program: Callable[..., RunResult],
    golden: Callable[[str], str],
    public_file: Callable[[str], str],
) -> Callable[..., None]:
    """``expect_golden(name, mode="exact", what=None)``: replay the runs of the declared
    ``[[golden]]`` file ``name`` on the student's workspace and diff their joined output with
    it (a public file through ``public_file``, a hidden one through ``golden``). After a run
    that times out the rest are not waited for: they would time out too."""

    def check(name: str, *, mode: TextMode = "exact", what: str | None = None) -> None:
        spec = pack.declaration.golden_spec(name)
        runs: list[RunResult] = []
        for run in spec.runs:
            runs.append(run_program(run.argv, stdin=run.stdin, inputs=run.inputs))
            if runs[-1].timed_out:
                break
        expected = public_file(name) if spec.public else golden(name)
        expect_program_output(runs, expected, pack.limits, mode=mode, joiner=spec.joiner,
                              what=what or f"output vs {name}")

    return check


def hidden(grading_state: GradingState, what: str) -> Path:
    """The reference workspace; a grader error in a public test or the pre-check."""
    if grading_state.public_only or grading_state.reference_workspace is None:
        raise GraderError(f"a public test used {what}; public tests may not (pack bug)")
    return grading_state.reference_workspace


def _build_mix(folder: Path, student: Path, reference: Path, from_reference: list[str]) -> None:
    shutil.copytree(student, folder)
    for name in from_reference:
        shutil.copyfile(reference / name, folder / name)
