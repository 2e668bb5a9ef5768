"""Attacks on the Dask route (issue 27, item 1), against real `dask scheduler` and `dask worker`
processes on 127.0.0.1 secured by `grade cluster-certs`.

Verdicts: a stranger's client and a rogue worker (no certificate, or one of another CA) are
refused; a plain tcp:// scheduler is refused unless --insecure-cluster, which warns; a worker's
pickle is never loaded by `grade` and a forged answer (100/100 for a broken submission, an
extra student, a wrong type) is refused, its students becoming grader errors; the rlimits
fallback never grades on a cluster. And the route works: a batch graded through TLS gives
the local route's `marks.csv` byte for byte, with a worker killed mid-batch and every
student graded exactly once (issue 29, item 6).
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.batch import BatchRequest, grade_batch
from graders.certificates import make_cluster_certs
from graders.cli import main
from graders.cluster import open_client
from graders.cluster_access import ClusterAccess, check_access, security_for
from graders.cluster_wire import results_answer, results_from_answer
from graders.errors import GraderError
from graders.outcomes import GradeOptions, digest_pack
from graders.pack import get_pack
from graders.sandbox import Isolation, detect_isolation
from graders.stages import grade_share
from graders.submissions import prepare

PACK = get_pack("altnim")
SAMPLES = ["correct", "wrong_eval_sign", "syntax_error", "do_nothing", "helper_function"]
DASK = str(Path(sys.executable).with_name("dask"))
START_SECONDS = 90  # a bound on waiting for a process to come up, never an assert

pytestmark = pytest.mark.skipif(detect_isolation() is Isolation.RLIMITS,
                                reason="cluster workers grade only inside bubblewrap")


def _tls(certs: Path, role: str) -> list[str]:
    return ["--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / f"{role}.pem"),
            "--tls-key", str(certs / f"{role}-key.pem")]


def _start_worker(address: str, certs: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [DASK, "worker", address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1",
         *_tls(certs, "worker"), *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("certs") / "cluster"
    make_cluster_certs(folder)
    return folder


@pytest.fixture(scope="module")
def foreign_certs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Certificates of another CA: what a stranger can make for themselves."""
    folder = tmp_path_factory.mktemp("foreign") / "cluster"
    make_cluster_certs(folder)
    return folder


@pytest.fixture(scope="module")
def scheduler(certs: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A TLS `dask scheduler` on 127.0.0.1 and two `dask worker` processes; its address."""
    info = tmp_path_factory.mktemp("scheduler") / "scheduler.json"
    processes = [subprocess.Popen(
        [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--protocol", "tls",
         "--no-dashboard", "--scheduler-file", str(info), *_tls(certs, "scheduler")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )]
    try:
        for _ in range(START_SECONDS * 10):
            if info.is_file() and info.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tls://127.0.0.1:"), address
        processes += [_start_worker(address, certs) for _ in range(2)]
        client = open_client(ClusterAccess(address, certs))
        try:
            client.wait_for_workers(2, timeout=START_SECONDS)
        finally:
            client.close()
        yield address
    finally:
        for process in reversed(processes):
            _stop(process)


def _class(tmp_path: Path, copies: int = 2) -> list[Path]:
    batch = tmp_path / "class"
    for copy in range(copies):
        for name in SAMPLES:
            shutil.copytree(PACK.fixtures_dir / "submissions" / name, batch / f"{name}_{copy}")
    return sorted(batch.iterdir())


def test_tls_cluster_gives_the_local_marks_with_a_worker_killed(scheduler, certs, tmp_path):
    sources = _class(tmp_path)
    grade_batch(BatchRequest(pack=PACK, sources=sources, out_dir=tmp_path / "local", fresh=True))
    watcher = open_client(ClusterAccess(scheduler, certs))
    killed: list[int] = []
    graded: list[str] = []
    done = threading.Event()

    def kill_a_busy_worker() -> None:
        """As soon as a worker is grading a share, kill it (its nanny starts a new one)."""
        for _ in range(START_SECONDS * 10):
            busy = [address for address, keys in watcher.processing().items() if keys]
            if busy or done.is_set():
                break
            time.sleep(0.1)
        if busy and not done.is_set():
            pid = watcher.run(os.getpid, workers=busy[:1])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    killer = threading.Thread(target=kill_a_busy_worker)
    killer.start()
    try:
        outcome = grade_batch(BatchRequest(
            pack=PACK, sources=sources, out_dir=tmp_path / "tls", fresh=True,
            cluster=ClusterAccess(scheduler, certs),
            progress=lambda result: graded.append(result.student),
        ))
    finally:
        done.set()
        killer.join()
        watcher.close()
    assert killed, "no worker was busy to kill"
    assert outcome.ok, [r.grader_errors for r in outcome.results]
    assert sorted(graded) == sorted(p.name for p in sources)  # each exactly once
    local, remote = (tmp_path / route / "marks.csv" for route in ("local", "tls"))
    assert remote.read_bytes() == local.read_bytes()
    with remote.open(encoding="utf-8") as stream:
        assert len(list(csv.DictReader(stream))) == len(sources)


def test_a_stranger_client_is_refused(scheduler, foreign_certs):
    from distributed import Client

    with pytest.raises((OSError, TimeoutError)):
        Client(scheduler.replace("tls://", "tcp://"), timeout="5s")
    with pytest.raises((OSError, TimeoutError)):
        Client(scheduler, timeout="5s", security=security_for(foreign_certs))
    with pytest.raises(GraderError, match="no Dask scheduler answered"):
        open_client(ClusterAccess(scheduler, foreign_certs))


def test_a_rogue_worker_cannot_join(scheduler, certs, foreign_certs):
    rogue = _start_worker(scheduler, foreign_certs, "--death-timeout", "3", "--no-nanny")
    try:
        rogue.wait(START_SECONDS)
    finally:
        _stop(rogue)
    assert rogue.returncode != 0
    client = open_client(ClusterAccess(scheduler, certs))
    try:
        workers = client.scheduler_info()["workers"]
    finally:
        client.close()
    assert len(workers) == 2


def test_plain_tcp_is_refused_unless_asked_and_then_warned(tmp_path, capsys):
    with pytest.raises(GraderError, match="refusing a scheduler reached without TLS"):
        check_access(ClusterAccess("tcp://127.0.0.1:8786"), Isolation.BUBBLEWRAP)
    [warning] = check_access(ClusterAccess("tcp://127.0.0.1:8786", insecure=True),
                             Isolation.BUBBLEWRAP)
    assert "run code" in warning and "pickle" in warning
    sources = _class(tmp_path, copies=1)
    assert main([str(sources[0]), "--cluster", "tcp://127.0.0.1:9", "--out",
                 str(tmp_path / "out")]) == 2
    assert "refusing a scheduler reached without TLS" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # refused before anyone was graded


def test_tls_without_certificates_is_refused():
    with pytest.raises(GraderError, match="--cluster-certs"):
        check_access(ClusterAccess("tls://127.0.0.1:8786"), Isolation.BUBBLEWRAP)


def test_the_rlimits_fallback_never_grades_on_a_cluster(tmp_path):
    with pytest.raises(GraderError, match="only inside the sandbox"):
        check_access(ClusterAccess("local:1"), Isolation.RLIMITS)
    request = BatchRequest(pack=PACK, sources=_class(tmp_path, copies=1), cluster="local:1",
                           isolation=Isolation.RLIMITS, out_dir=tmp_path / "out")
    with pytest.raises(GraderError, match="only inside the sandbox"):
        grade_batch(request)
    assert not (tmp_path / "out").exists()


class _Payload:
    """What a rogue worker would send: a pickle that runs code where it is loaded."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path(self.marker).touch, ())


def _rogue_task(marker: str) -> _Payload:
    return _Payload(marker)


def test_a_workers_pickle_is_never_loaded_by_grade(tmp_path):
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the worker cannot import us
    client = open_client("local:1", Isolation.BUBBLEWRAP)
    marker = tmp_path / "unpickled-in-grade"
    try:
        future = client.submit(_rogue_task, str(marker), pure=False)
        with pytest.raises(TypeError, match="msgpack"):
            future.result(timeout=START_SECONDS)
    finally:
        client.close()
        client.cluster.close()
    assert not marker.exists()


def test_a_forged_answer_is_refused(tmp_path):
    folder = PACK.fixtures_dir / "submissions"
    share = [prepare(folder / "syntax_error", PACK, tmp_path / "s")]
    options = GradeOptions(isolation=detect_isolation(), pack_digest=digest_pack(PACK))
    honest = json.loads(results_answer(grade_share(PACK.id, share, options)))
    assert honest["results"][0]["total"] == 0
    # A forged but well-typed total (100 for this student) is kept out by the workers' TLS
    # identity alone (see the threat model). What the model can refuse, it refuses:
    for bad in (
        {**honest, "results": honest["results"] * 2},
        {"results": [{**honest["results"][0], "student": "mallory"}]},
        {"results": [{**honest["results"][0], "total": "100/100"}]},
        {"results": [{**honest["results"][0], "status": "pwned"}]},
        {"results": [{**honest["results"][0], "assignment": "pnt"}]},
        {**honest, "__reduce__": "os.system"},
    ):
        with pytest.raises(ValueError):
            results_from_answer(json.dumps(bad), share, PACK.id)
    import pickle

    with pytest.raises(ValueError, match="JSON text"):
        results_from_answer(pickle.dumps(_Payload(str(tmp_path / "x"))), share, PACK.id)
    assert not (tmp_path / "x").exists()
