"""The attack suite: hostile submissions against the sandbox and the trust boundary.

Every pack with a folder ``fixtures/attacks/<pack>/`` is graded in ONE batch: all its attacks
plus a few honest sample submissions of ``fixtures/<pack>/submissions/``. Canaries holding the
run's random token sit in the hidden trees (``reference_solutions/<pack>/``,
``fixtures/<pack>/golden/``, ``graders/packs/<pack>/``) for the whole run (:mod:`tests.canaries`),
the token is in the grader's environment during the batch, and a TCP listener waits on the
host. The tests then prove, for the batch and for each attack:

- the mark is at most the honest one its ``expected.json`` declares (``"at_most": true``, see
  :mod:`graders.selfcheck`), and the result is graded, not a grader error;
- its report says in plain words what happened (``"explains"``: phrases that must appear in the
  messages of its failed tests and rule violations);
- no file of the repository's trees changed (see :func:`attributable`; set
  ``GRADER_ATTACKS_STRICT=1`` to count every change), and no sandbox uid left a file in
  ``/tmp``;
- no canary token reached any result, report or file, and nothing connected to the listener
  (on a free port, written into the copy of each attack that names ``CANARY_PORT``);
- no process of the batch's sandbox uids survived it;
- the batch started a bounded number of sandboxes;
- the honest submissions got the same marks as in the samples' own batch, graded without
  the attacks (the run's cached batch: they are not graded a third time).

``"known_gap"`` in an ``expected.json`` names an attack the engine does NOT stop (see
``docs/threat-model.md``): its mark test is a strict xfail, so closing the gap shows up.
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import hashlib
import json
import os
import re
import shutil
import socket
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from graders.batch import BatchRequest, grade_batch
from graders.outcomes import BatchOutcome
from graders.pack import Pack, get_pack, project_root
from graders.results import SubmissionResult
from graders.sandbox import Isolation, isolation, uids
from graders.selfcheck import expected_path, mismatches, unexplained
from graders.submissions import find_submissions
from graders.submissions import student_id as graded_id
from graders.times import load_times
from tests import canaries

ROOT = project_root()
ATTACKS = ROOT / "fixtures" / "attacks"
# Honest samples graded in the same batch as the attacks (fast ones, with different marks).
HONEST = {
    "altnim": ["correct", "depth_off_by_one", "missing_header"],
    "game_of_nim": ["correct_misere"],
    "pnt": ["correct"],
    "stonehenge": ["correct"],
    "tippy": ["correct"],
}
TREES = ["reports", "fixtures", "reference_solutions", "graders", "student_templates"]
SKIPPED_PARTS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
# `CANARY_PORT = 0` in an attack becomes the listener's port in the copy that is graded
PORT_LINE = re.compile(r"^CANARY_PORT = \d+", re.M)
CANARY_ENV = "GRADER_CANARY_SECRET"
# Sandboxes a batch may start: one per test case, and per submission its worker plus a start
# again after each of at most two timeouts.
SANDBOXES_PER_SUBMISSION = 3
MARKERS = (b"pwned", b"mallory")  # in everything the attacks try to write


def attack_sources(pack_id: str) -> list[Path]:
    folder = ATTACKS / pack_id
    if not folder.is_dir():
        return []
    return [path for path in find_submissions(folder) if expected_path(path).is_file()]


def student_id(source: Path) -> str:
    """The id grading gives a submission (a name that is not UTF-8 is shown escaped; a zip
    beside a folder of its stem keeps its full name)."""
    return graded_id(source)


def batch_ids(sources: list[Path]) -> dict[Path, str]:
    """The id each source gets in one batch, in order: a name equal to an earlier one but for
    case gets `` (2)`` (see ``graders.batch``), so ``Alice/`` and ``alice/`` are two rows."""
    seen: set[str] = set()
    ids: dict[Path, str] = {}
    for source in sources:
        name = student_id(source)
        candidates = [name, source.name] + [f"{name} ({n})" for n in range(2, 100)]
        ids[source] = next(c for c in candidates if c.lower() not in seen)
        seen.add(ids[source].lower())
    return ids


def expected_of(source: Path) -> dict:
    return json.loads(expected_path(source).read_text(encoding="utf-8"))


PACKS = (
    sorted(p.name for p in ATTACKS.iterdir() if attack_sources(p.name)) if ATTACKS.is_dir() else []
)
CASES = [(pack_id, source) for pack_id in PACKS for source in attack_sources(pack_id)]
CASE_IDS = [f"{pack_id}/{student_id(source)}" for pack_id, source in CASES]


# -- what a batch under attack leaves behind ------------------------------------------------
@dataclass
class AttackRun:
    pack: Pack
    token: str
    outcome: BatchOutcome
    leases: int  # sandbox uids leased during the batch: one per sandbox started
    results: dict[str, SubmissionResult]
    honest: list[str]
    changed: list[str]
    stray_files: list[str]
    leaks: dict[str, list[str]]
    survivors: list[str]
    connections: list[str]
    listening: bool
    out_dir: Path
    used_uids: set[int] = field(default_factory=set)
    ids: dict[Path, str] = field(default_factory=dict)


class Listener:
    """A TCP server on the host, on a port the system picks, that records every connection
    made to it."""

    def __init__(self) -> None:
        self.connections: list[str] = []
        self.port = 0
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            self.sock.bind(("0.0.0.0", 0))
            self.port = self.sock.getsockname()[1]
            self.sock.listen(16)
            self.sock.settimeout(0.2)
            self.listening = True
        except OSError:
            self.listening = False
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        if self.listening:
            self.thread.start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, peer = self.sock.accept()
            except OSError:
                continue
            self.connections.append(f"{peer[0]}:{peer[1]}")
            conn.close()

    def close(self) -> None:
        self.stopped.set()
        if self.listening:
            self.thread.join(2)
        self.sock.close()


def tree_hashes(roots: list[Path]) -> dict[str, str]:
    """``relative path -> digest`` of every file, link and folder (with its mode) under
    ``roots``; symbolic links are recorded, never followed."""
    hashes: dict[str, str] = {}
    for top in roots:
        if not top.exists():
            continue
        for folder, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d not in SKIPPED_PARTS]
            for name in [*dirs, *files]:
                path = Path(folder, name)
                info = path.lstat()
                if stat.S_ISLNK(info.st_mode):
                    digest = "link:" + os.readlink(path)
                elif stat.S_ISREG(info.st_mode):
                    digest = hashlib.sha256(path.read_bytes()).hexdigest()
                else:
                    digest = "dir"
                hashes[str(path.relative_to(ROOT))] = f"{digest} {oct(info.st_mode)} {info.st_uid}"
    return hashes


def attributable(relative: str, pack_id: str) -> bool:
    """Whether a file that changed during the batch counts against the sandbox.

    Every change in the pack's own trees does. Elsewhere (the engine, other packs, which other
    engineers may be editing while the suite runs) a change counts when the file is owned by a
    sandbox uid or holds an attack's marker: every write payload of the attacks carries one."""
    path = ROOT / relative
    own = [
        f"{tree}/{pack_id}"
        for tree in (
            "fixtures",
            "reference_solutions",
            "student_templates",
            "reports",
            "graders/packs",
            "fixtures/attacks",
        )
    ]
    if os.environ.get("GRADER_ATTACKS_STRICT") or any(
        relative == tree or relative.startswith(tree + "/") for tree in [*own, "graders/sandbox"]
    ):
        return True
    if not path.exists() and not path.is_symlink():
        return False  # deleted: attacks never delete, engineers do
    info = path.lstat()
    if info.st_uid >= uids.FIRST_UID:
        return True
    if not stat.S_ISREG(info.st_mode):
        return False
    content = path.read_bytes().lower()
    return any(marker in content for marker in MARKERS)


def uid_processes(uid_set: set[int]) -> list[str]:
    """``pid uid command`` of every live process running under one of ``uid_set``."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            owner = entry.stat().st_uid
            if owner in uid_set:
                command = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ")
                found.append(f"{entry.name} uid={owner} {command.decode(errors='replace')}")
    return found


def survivors(used: set[int]) -> list[str]:
    """Processes left under the batch's uids. Only uids nobody leases now are checked: a uid
    another grading run on this machine holds is that run's business."""
    free: set[int] = set()
    locks = []
    for uid in sorted(used):
        with contextlib.suppress(OSError):
            fd = os.open(uids.LOCK_DIR / f"{uid}.lock", os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            locks.append(fd)
            free.add(uid)
    try:
        return uid_processes(free)
    finally:
        for fd in locks:
            os.close(fd)


def stray_files(used: set[int], since: float) -> list[str]:
    """Files that the batch's sandbox uids created or changed in the shared /tmp since
    ``since``, outside any scratch copy (``/tmp/grader-*/run-*``, this run's are gone by now,
    other grading runs' are theirs): a sandbox may write only in its own scratch copy."""
    found = []
    for folder, dirs, files in os.walk("/tmp"):
        if folder.count(os.sep) > 4:
            dirs[:] = []
        if Path(folder).name.startswith("grader-"):
            dirs[:] = [d for d in dirs if not d.startswith("run-")]
        for name in [*dirs, *files]:
            path = os.path.join(folder, name)
            with contextlib.suppress(OSError):
                info = os.lstat(path)
                if info.st_uid in used and info.st_ctime >= since:
                    found.append(path)
    return found


def texts_of(result: SubmissionResult) -> str:
    return result.to_json()


def leaks_in(
    token: str, results: list[SubmissionResult], out_dir: Path, extra_files: list[str]
) -> dict[str, list[str]]:
    """Where ``token`` shows up: in a result (its JSON holds every message, output and detail),
    in a report file, or in a file a sandbox wrote."""
    leaks: dict[str, list[str]] = {}
    for result in results:
        if token in texts_of(result):
            leaks.setdefault(result.student, []).append("result")
    for path in out_dir.rglob("*"):
        if path.is_file() and token.encode() in path.read_bytes():
            leaks.setdefault("reports", []).append(str(path))
    for name in extra_files:
        with contextlib.suppress(OSError):
            if os.path.isfile(name) and token.encode() in Path(name).read_bytes():
                leaks.setdefault("files", []).append(name)
    return leaks


def aimed_at(sources: list[Path], port: int, folder: Path) -> list[Path]:
    """``sources``, each attack folder naming ``CANARY_PORT`` replaced by a copy in ``folder``
    that names ``port``."""
    aimed = []
    for source in sources:
        files = list(source.glob("*.py")) if source.is_dir() else []
        if any(PORT_LINE.search(path.read_text("utf-8", "replace")) for path in files):
            copy = shutil.copytree(source, folder / source.name, symlinks=True,
                                   dirs_exist_ok=True)
            for path in copy.glob("*.py"):
                text = path.read_text(encoding="utf-8")
                path.write_text(PORT_LINE.sub(f"CANARY_PORT = {port}", text), encoding="utf-8")
            source = copy
        aimed.append(source)
    return aimed


def leased(used: set[int], leases: list[int]) -> Callable[[uids.UidPool], int]:
    """``UidPool.acquire`` that also notes each uid it leases."""
    original_acquire = uids.UidPool.acquire

    def acquire(self: uids.UidPool) -> int:
        uid = original_acquire(self)
        used.add(uid)
        leases.append(uid)
        return uid

    return acquire


def attack_run(pack_id: str, tmp_root: Path) -> AttackRun:
    """Grade ``pack_id``'s attacks and honest samples in one batch."""
    pack = get_pack(pack_id)
    honest = [pack.fixtures_dir / "submissions" / name for name in HONEST.get(pack_id, [])]
    honest = [path for path in honest if path.is_dir()]
    sources = attack_sources(pack_id) + honest
    out_dir = tmp_root / f"reports-{pack_id}"
    token = canaries.token()
    used: set[int] = set()
    leases: list[int] = []
    listener = Listener()
    aimed = aimed_at(sources, listener.port, tmp_root / f"aimed-{pack_id}")
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(CANARY_ENV, token)
            patch.setattr(uids.UidPool, "acquire", leased(used, leases))
            before = tree_hashes([ROOT / tree for tree in TREES])
            wall_started = time.time()  # what sandbox uids wrote in /tmp since
            times = ATTACKS / pack_id / "times.csv"  # as `grade --times` gives them
            outcome = grade_batch(
                BatchRequest(pack=pack, sources=aimed, out_dir=out_dir, fresh=True,
                             times=load_times(times) if times.is_file() else None)
            )
            after = tree_hashes([ROOT / tree for tree in TREES])
        left = survivors(used)
        strays = stray_files(used, wall_started)
    finally:
        listener.close()
    changed = sorted(
        path for path in before.keys() | after.keys() if before.get(path) != after.get(path)
    )
    others = [path for path in changed if not attributable(path, pack_id)]
    changed = [path for path in changed if path not in others]
    if others:
        print(
            f"\nchanged during the {pack_id} batch, by no attack (no marker, no sandbox owner, "
            f"outside the pack's trees): {others}"
        )
    leaks = leaks_in(
        token, outcome.results, out_dir, strays + [str(ROOT / path) for path in changed]
    )
    print(
        f"\n{pack_id}: {len(sources)} submissions ({len(honest)} honest) graded under attack "
        f"in {len(leases)} sandboxes, isolation {outcome.isolation.value}"
    )
    run = AttackRun(
        pack=pack,
        token=token,
        outcome=outcome,
        leases=len(leases),
        results={result.student: result for result in outcome.results},
        honest=[student_id(path) for path in honest],
        changed=changed,
        stray_files=strays,
        leaks=leaks,
        survivors=left,
        connections=list(listener.connections),
        listening=listener.listening,
        out_dir=out_dir,
        used_uids=used,
        ids=batch_ids(sources),
    )
    return run


@pytest.fixture(scope="session")
def attacked(run_cache):
    """``attacked(pack_id) -> AttackRun``: each pack's attack batch, run once per test run."""
    runs: dict[str, AttackRun] = {}

    def of(pack_id: str) -> AttackRun:
        if pack_id not in runs:
            runs[pack_id] = run_cache.once(f"attacks-{pack_id}", get_pack(pack_id),
                                           lambda folder: attack_run(pack_id, folder))
        return runs[pack_id]

    return of


# -- per attack ------------------------------------------------------------------------------
def test_there_are_enough_attacks():
    assert len(CASES) >= 25, CASE_IDS


@pytest.mark.parametrize("pack_id", PACKS)
def test_a_canary_holding_the_token_sits_in_each_hidden_tree(pack_id):
    """Else no leak test below could fail: the token would be nowhere to steal."""
    token = canaries.token()
    for folder in canaries.hidden_trees(get_pack(pack_id)):
        [canary] = [path for path in folder.iterdir() if canaries.is_canary(path)]
        assert token in canary.read_text(encoding="utf-8"), canary


@pytest.mark.parametrize(("pack_id", "source"), CASES, ids=CASE_IDS)
def test_attack_earns_at_most_its_honest_mark(attacked, pack_id, source):
    run = attacked(pack_id)
    expected = expected_of(source)
    result = run.results.get(run.ids[source])
    assert result is not None, f"{run.ids[source]} was not graded"
    problems = mismatches(result, expected)
    if expected.get("known_gap"):
        if problems:
            pytest.xfail(f"known gap: {expected['known_gap']}")
        pytest.fail(
            f"the known gap seems closed ({expected['known_gap']}): remove `known_gap` "
            "from its expected.json"
        )
    assert problems == [], f"{expected.get('why', '')}\n{describe_failures(result)}"


@pytest.mark.parametrize(("pack_id", "source"), CASES, ids=CASE_IDS)
def test_attack_report_explains_what_happened(attacked, pack_id, source):
    run = attacked(pack_id)
    expected = expected_of(source)
    result = run.results[run.ids[source]]
    failed = [test for test in result.tests if test.outcome == "failed"]
    assert all(test.message.strip() for test in failed), [t.name for t in failed if not t.message]
    missing = unexplained(result, expected.get("explains", []))
    assert not missing, f"the report never says {missing}:\n{describe_failures(result)}"


def describe_failures(result: SubmissionResult) -> str:
    lines = [
        f"total {result.total:g}, status {result.status}, violations "
        f"{sorted({v.rule for v in result.violations})}"
    ]
    lines += [
        f"  {t.name}: {t.outcome}: {t.message[:300]}" for t in result.tests if t.outcome != "passed"
    ]
    lines += [f"  grader error: {error[:300]}" for error in result.grader_errors]
    return "\n".join(lines)


# -- per batch -------------------------------------------------------------------------------
@pytest.mark.parametrize("pack_id", PACKS)
def test_no_file_outside_the_scratch_copies_changed(attacked, pack_id):
    run = attacked(pack_id)
    assert run.changed == [], f"changed during the batch: {run.changed}"
    assert run.stray_files == [], (
        f"written by sandbox uids outside their scratch copies: {run.stray_files}"
    )


@pytest.mark.parametrize("pack_id", PACKS)
def test_nothing_hidden_was_read(attacked, pack_id):
    run = attacked(pack_id)
    assert run.leaks == {}, f"canary token {run.token} found in {run.leaks}"


@pytest.mark.parametrize("pack_id", PACKS)
def test_no_network_connection_reached_the_host(attacked, pack_id):
    run = attacked(pack_id)
    if not run.listening:
        pytest.skip("the listener could not start")
    assert run.connections == []


@pytest.mark.parametrize("pack_id", PACKS)
def test_no_sandbox_process_survives_the_batch(attacked, pack_id):
    run = attacked(pack_id)
    assert run.used_uids, "the batch used no sandbox uid (was anything run?)"
    assert run.survivors == []


@pytest.mark.parametrize("pack_id", PACKS)
def test_the_batch_starts_a_bounded_number_of_sandboxes(attacked, pack_id):
    """Work bounds the batch's time: no attack makes the engine start sandboxes without end
    (a worker per call, restarts past the timeouts allowed)."""
    run = attacked(pack_id)
    cases = sum(len(result.tests) for result in run.outcome.results)
    assert run.leases <= cases + SANDBOXES_PER_SUBMISSION * len(run.outcome.results)


@pytest.mark.parametrize("pack_id", PACKS)
def test_honest_submissions_are_unaffected(attacked, sample_results, pack_id):
    run = attacked(pack_id)
    assert run.honest, "no honest sample in the batch"
    graded_alone = sample_results(pack_id)
    for student in run.honest:
        alone = graded_alone[student]
        together = run.results[student]
        assert together.status == alone.status == "graded", student
        assert together.total == alone.total, student
        assert {m.id: m.earned for m in together.criteria} == {
            m.id: m.earned for m in alone.criteria
        }, student
        assert sorted(v.rule for v in together.violations) == sorted(
            v.rule for v in alone.violations
        ), student
        assert {(t.name, t.case, t.outcome) for t in together.tests} == {
            (t.name, t.case, t.outcome) for t in alone.tests
        }, student
        expected = expected_of(run.pack.fixtures_dir / "submissions" / student)
        assert mismatches(together, expected) == [], student


@pytest.mark.parametrize("pack_id", PACKS)
def test_every_submission_has_its_own_row_and_report(attacked, pack_id):
    """Look-alike names and folder/zip twins never share a row, a workspace or a page."""
    run = attacked(pack_id)
    sources = attack_sources(pack_id) + [
        run.pack.fixtures_dir / "submissions" / name for name in HONEST.get(pack_id, [])]
    assert len(run.outcome.results) == len(run.results) == len(sources)
    pages = list((run.out_dir / "students").glob("*.html"))
    assert len(pages) >= len(sources), sorted(page.name for page in pages)


@pytest.mark.parametrize("pack_id", PACKS)
def test_no_marks_csv_cell_is_a_formula(attacked, pack_id):
    """Folder names such as ``=HYPERLINK(...)`` or ``@SUM(...)`` reach marks.csv quoted."""
    run = attacked(pack_id)
    sheets = list(run.out_dir.rglob("*.csv"))
    assert sheets, "no CSV was written"
    for sheet in sheets:
        with sheet.open(encoding="utf-8", newline="") as handle:
            cells = [cell for row in csv.reader(handle) for cell in row]
        formulas = [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
        assert formulas == [], f"{sheet.name}: {formulas[:5]}"


@pytest.mark.parametrize("pack_id", PACKS)
def test_reports_escape_what_students_wrote(attacked, pack_id):
    run = attacked(pack_id)
    pages = list(run.out_dir.rglob("*.html"))
    assert pages, "no report was written"
    markup = (b"<script>alert(", b"<img src=x onerror")
    unescaped = [str(page) for page in pages if any(m in page.read_bytes() for m in markup)]
    assert unescaped == []


@pytest.mark.skipif(os.geteuid() != 0, reason="the fallback drops to a sandbox uid only as root")
def test_the_fallback_keeps_hidden_trees_closed(tmp_path: Path):
    """With resource limits only (the fallback), the stealing attacks used to get the reference
    solution. As root the fallback now closes the checkout's hidden trees and the workspaces
    to sandbox uids: they earn at most their honest mark there too (docs/threat-model.md)."""
    stealers = [(pack_id, ATTACKS / pack_id / "steal_reference") for pack_id in PACKS]
    stealers = [(pack_id, source) for pack_id, source in stealers if source.is_dir()][:2]
    if not stealers:
        pytest.skip("no steal_reference attack")
    for pack_id, source in stealers:
        outcome = grade_batch(
            BatchRequest(pack=get_pack(pack_id), sources=[source], isolation=Isolation.RLIMITS)
        )
        [result] = outcome.results
        assert mismatches(result, expected_of(source)) == [], (pack_id, describe_failures(result))
    closed = [ROOT / tree for tree in isolation.HIDDEN_TREES if (ROOT / tree).is_dir()]
    assert closed and all(not folder.stat().st_mode & 0o007 for folder in closed)
