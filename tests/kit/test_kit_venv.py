"""Done-when of issue 14, per pack: the kit, unzipped into an empty folder and run in a fresh
virtual environment holding only its requirements.txt, passes the reference, and gives each
sample submission the instructor's verdict and messages on the public part, starting its
child interpreter again only after a timeout or a crash; a 0-point notice is a NOTE that
fails nothing, and the kit prints the public part's points (issue 30)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import threading
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from graders.pack import get_pack
from graders.results import SubmissionResult
from graders.selfcheck import sample_sources
from graders.style.python_ta import RUNNER
from graders.submissions import student_id
from graders.verdict import cause_weights, is_notice, problems, public_points
from tests.kit.conftest import PACKS
from tests.kit.forked import COUNT_STARTS, ForkedPrechecks, without_interpreter_settings

# A sample's pre-check starts no more processes than the reference's (runs[0]; python_ta's runs
# aside) but for its failing tests: each may stop its child (a timeout, a crash) and have it
# started again, once per example at most twice (after two timeouts the remaining calls fail
# at once).
RESTARTS = 2
# Runs the pre-check as `python3 precheck.py [FOLDER]` does, writing the command of every
# process it starts to $PRECHECK_STARTS.
COUNTING = COUNT_STARTS + """
import json, os, runpy, sys
starts = count_starts()
sys.path.insert(0, os.getcwd())
sys.argv[0] = "precheck.py"
try:
    runpy.run_path("precheck.py", run_name="__main__")
finally:
    with open(os.environ["PRECHECK_STARTS"], "w", encoding="utf-8") as out:
        json.dump(starts, out)
"""
# Run in a kit folder by the kit's Python with $PRECHECK_ANSWERS set: the kit's own python_ta
# code (the pre-check's session_runs, the pre-check's plain sandbox) over the student folders
# named on the command line, a few per run, answers kept where the pre-checks will look. One
# run over many students says what a run of each says (tests/style/test_python_ta_chunk.py),
# and each pre-check then reads its answers instead of starting python_ta: about 3 s of a
# stonehenge pre-check. A student the run did not finish is asked again by their pre-check.
WARM_STYLE = """
import sys, tempfile
from pathlib import Path
sys.path.insert(0, str(Path.cwd()))
from _precheck.fixtures import tool_over
from _precheck.main import _student_files, load_pack
from _precheck.sandbox import Sandbox
from _precheck.style import assessed
from _precheck.submissions import prepare
pack, sandbox = load_pack(), Sandbox()
scratch = Path(tempfile.mkdtemp(prefix="warm-", dir=sys.argv[1]))
folders = [Path(arg) for arg in sys.argv[2:]]
for start in range(0, len(folders), 8):
    submissions = []
    for index, folder in enumerate(folders[start:start + 8], start):
        source = folder if folder.is_file() else _student_files(
            folder, scratch / f"given{index}" / folder.name)
        submissions.append(prepare(source, pack, scratch / f"work{index}"))
    assessed.session_runs(pack, submissions, lambda *call: tool_over(pack, sandbox, *call), {})
"""
# Notes the instructor's run adds after the session from what only the grading machine knows
# (graders/environment.py: a module neither standard library nor in the course's environment
# as built there); the pre-check runs in the student's own environment and does not add them.
GRADER_SIDE = {"missing-module"}
# Each pack's kit pre-checks every sample in a fresh environment (a minute or more): the module
# runs among the first, so none of them is left for one core at the end of the run.
pytestmark = pytest.mark.long


def run_precheck(python: Path, kit: Path, source: Path, out: Path, into_kit: bool,
                 kept: Path | None = None) -> tuple[int, str, list[list[str]], dict]:
    """The kit's pre-check on ``source``: its files copied into the kit as a student would
    (``into_kit``), else named on the command line (a folder or a .zip). Exit status, what
    it printed, the processes it started, and its verdict as data. ``kept``: where the tools'
    answers are kept (else the kit's own folder)."""
    student = out / "student"
    shutil.copytree(kit, student)
    if into_kit:
        for path in source.iterdir():
            shutil.copyfile(path, student / path.name)
    return precheck_in(python, student, out, [] if into_kit else [str(source)], kept)


def precheck_in(python: Path, student: Path, out: Path, args: list[str],
                kept: Path | None = None) -> tuple[int, str, list[list[str]], dict]:
    """``python3 precheck.py ARGS`` in the kit folder ``student``, as :func:`run_precheck`."""
    (out / "counting.py").write_text(COUNTING, encoding="utf-8")
    env = precheck_environment(out, kept)
    done = subprocess.run([str(python), str(out / "counting.py"), *args], cwd=student, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    return done.returncode, done.stdout + done.stderr, _read(out / "starts.json"), verdict_in(out)


def precheck_environment(out: Path, kept: Path | None) -> dict[str, str]:
    """A pre-check's environment: this process's without its Python's settings, the verdict
    as data and the processes started written under ``out``, a shell setting of the
    student's, and where the tools' answers are kept (``kept``, else the kit's folder)."""
    for name in ("verdict.json", "starts.json"):
        (out / name).unlink(missing_ok=True)
    env = without_interpreter_settings(os.environ)
    env["PRECHECK_JSON"] = str(out / "verdict.json")
    env["PRECHECK_STARTS"] = str(out / "starts.json")
    env["PYTEST_ADDOPTS"] = "-x"  # a student's shell setting, which must change no verdict
    if kept is not None:
        env["PRECHECK_ANSWERS"] = str(kept)
    return env


def verdict_in(out: Path) -> dict:
    """The verdict a pre-check wrote under ``out`` as data (empty: it wrote none)."""
    written = out / "verdict.json"
    return json.loads(written.read_text(encoding="utf-8")) if written.is_file() else {}


def warm_style(python: Path, kit: Path, samples: list[Path], kept: Path) -> None:
    """The samples' python_ta answers kept in ``kept`` by the kit's own code (WARM_STYLE)."""
    env = without_interpreter_settings(os.environ)
    env["PRECHECK_ANSWERS"] = str(kept)
    done = subprocess.run([str(python), "-c", WARM_STYLE, str(kept.parent), *map(str, samples)],
                          cwd=kit, env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]


def own(starts: list[list[str]]) -> list[list[str]]:
    """The processes a pre-check started but for python_ta's runs, which depend on the answers
    kept before it (the reference's run asks for them, the samples' mostly read them)."""
    return [argv for argv in starts if not any(arg.endswith(RUNNER) for arg in argv)]


def _read(path: Path) -> list[list[str]]:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []


def instructor(sample_results, reference_and_bare, pack_id: str) -> dict[str, SubmissionResult]:
    """The instructor's own gradings of the samples and the reference (the run's graded
    batches): the pre-check must say what they say on the public part. Their public tests are
    those a public-only run (`grade check`) gives, case for case and word for word: no hidden
    test runs before a public one can change it (a worker restarts after a timeout or crash)."""
    reference = reference_and_bare(pack_id)[0]
    return {**sample_results(pack_id), reference.student: reference}


# Which limit stops a looping program first (the wall clock or the CPU limit, one second
# apart) depends on the machine's load, in the instructor's own runs too: the verdict is the
# same, so the comparison reads both wordings as one, once per program.
STOPPED = re.compile(
    r"^(`[^`]+`) (?:did not finish within [\d.]+ s|used more than [\d.]+ s of CPU) "
    r"and was stopped.*$", re.M)


def _same_wording(message: str) -> str:
    lines = STOPPED.sub(r"\1 was stopped at its time limit", message).splitlines()
    return "\n".join(line for i, line in enumerate(lines) if line not in lines[:i]
                     or "stopped at its time limit" not in line)


def _tests(items) -> list[tuple[str, str, str, str]]:
    return sorted((t["name"], t["case"], t["outcome"], _same_wording(t["message"]))
                  for t in items)


@pytest.mark.parametrize("pack_id", PACKS)
def test_the_kit_runs_in_a_fresh_venv_with_the_instructors_verdict(
        pack_id, kit_zip, kit_python, sample_results, reference_and_bare, tmp_path):
    pack = get_pack(pack_id)
    with zipfile.ZipFile(kit_zip(pack_id)) as archive:
        archive.extractall(tmp_path / "unzipped")
    kit = tmp_path / "unzipped" / f"{pack_id}-kit"
    python = kit_python(pack_id, kit / "requirements.txt")
    harness = subprocess.run([str(python), "-c", "import graders"], cwd=tmp_path,
                             capture_output=True, text=True, check=False)
    assert harness.returncode != 0 and "No module named 'graders'" in harness.stderr

    shares = json.loads((kit / "_precheck" / "kit.json").read_text())["shares"]
    samples = sample_sources(pack)
    # The reference first and alone: it makes the starter's python_ta answer, which every
    # later pre-check then reads; the samples' answers come from one warm-up run, but for
    # the first style sample's, which its own pre-check asks python_ta for, as a student's does.
    warm = tmp_path / "kept"
    if any(tool.name == "python_ta" for tool in pack.declaration.tools):
        asks = next((s for s in samples if s.name.startswith("style_")), None)
        warm_style(python, kit, [s for s in samples if s != asks], warm)
    (tmp_path / "run0").mkdir()
    runs = [(pack.reference_dir,
             run_precheck(python, kit, pack.reference_dir, tmp_path / "run0", True, warm))]

    servers: dict[str, ForkedPrechecks] = {}

    def check(index_source):
        index, source = index_source
        place = tmp_path / f"run{index}"
        place.mkdir()
        # Per thread: a copy of the kit, its pre-checks forked from one interpreter, and a
        # copy of the answers (no two pre-checks at once share mypy's cache, one SQLite file
        # a writer may find locked, if one must run python_ta after all).
        thread = threading.current_thread().name
        kept = tmp_path / f"kept-{thread}"
        if thread not in servers:
            if warm.exists():
                shutil.copytree(warm, kept)
            shutil.copytree(kit, tmp_path / f"kit-{thread}")
            servers[thread] = ForkedPrechecks(python, tmp_path / f"kit-{thread}",
                                              without_interpreter_settings(os.environ))
        env = precheck_environment(place, kept)
        code, printed, starts = servers[thread].run([str(source)], env, place)
        return source, (code, printed, starts, verdict_in(place))

    with ThreadPoolExecutor(max_workers=2) as pool:
        try:
            runs += pool.map(check, enumerate(samples, 1))
        finally:  # after a failure, the samples not yet begun are not run
            pool.shutdown(cancel_futures=True)
            for server in servers.values():
                server.close()
    # Asked for after the pre-checks: another worker may be grading the samples meanwhile.
    expected = instructor(sample_results, reference_and_bare, pack_id)
    for source, (code, printed, starts, verdict) in runs:
        want = expected[student_id(source)]
        assert verdict, f"{source.name}: no verdict\n{printed[-3000:]}"
        failing = sum(test["outcome"] != "passed" for test in verdict["tests"])
        assert len(own(starts)) <= len(own(runs[0][1][2])) + RESTARTS * failing, \
            (source.name, starts)
        public = [dict(name=t.name, case=t.case, outcome=t.outcome, message=t.message)
                  for t in want.tests if t.public]
        assert _tests(verdict["tests"]) == _tests(public), source.name
        got_rules = sorted((v["rule"], v["file"], v["line"], v["message"])
                           for v in verdict["violations"])
        assert got_rules == sorted((v.rule, v.file, v.line, v.message)
                                   for v in want.violations if v.rule not in GRADER_SIDE), \
            source.name
        fails = any(t["outcome"] != "passed" for t in public) or problems(pack, want.violations)
        assert code == (1 if fails else 0), f"{source.name}:\n{printed[-3000:]}"
        assert public_points([t for t in want.tests if t.public], shares,
                             cause_weights(pack, shares)) in printed, printed
        for notice in (v for v in want.violations if is_notice(pack, v)):
            assert f"NOTE {notice.title} [{notice.rule}] (0 points" in printed, printed
        if source == pack.reference_dir:
            assert code == 0 and "All public tests pass" in printed, printed[-3000:]


@pytest.mark.parametrize("pack_id", [p for p in PACKS if any(
    tool.name == "python_ta" for tool in get_pack(p).declaration.tools)])
def test_a_second_precheck_of_the_same_files_runs_no_python_ta(pack_id, kit_zip, kit_python,
                                                               tmp_path):
    """The student runs the pre-check again in the same kit folder: python_ta's answers about
    unchanged files (theirs and the starter's) are kept in the kit, so it does not run, and
    the verdict is the first run's."""
    pack = get_pack(pack_id)
    with zipfile.ZipFile(kit_zip(pack_id)) as archive:
        archive.extractall(tmp_path / "unzipped")
    kit = tmp_path / "unzipped" / f"{pack_id}-kit"
    python = kit_python(pack_id, kit / "requirements.txt")
    for name in pack.submitted_files:
        shutil.copyfile(pack.reference_dir / name, kit / name)
    runs = []
    for attempt in ("first", "again"):
        (tmp_path / attempt).mkdir()
        runs.append(precheck_in(python, kit, tmp_path / attempt, []))
    (code, printed, starts, verdict), (code_again, printed_again, starts_again, again) = runs
    tool_runs = [[arg for arg in argv if arg.endswith(RUNNER)] for argv in starts]
    assert any(tool_runs), starts  # the first run asked the tool
    assert not any(arg.endswith(RUNNER) for argv in starts_again for arg in argv), starts_again
    assert (kit / "_precheck" / "kept").is_dir()
    assert code_again == code == 0, printed_again[-3000:]
    assert _without_times(again) == _without_times(verdict)
    assert printed_again == printed


def _without_times(verdict: dict) -> dict:
    return {**verdict, "tests": [{k: v for k, v in test.items() if k != "seconds"}
                                 for test in verdict["tests"]]}
