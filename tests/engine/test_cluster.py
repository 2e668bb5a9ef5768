"""The Dask route grades exactly as the local one, survives a lost worker, and refuses a worker
whose harness differs."""

from __future__ import annotations

import os
import signal
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from graders.cluster import close_client, grade_remote, open_client, run_on_cluster
from graders.cluster_wire import options_json, results_from_answer, share_json
from graders.errors import GraderError
from graders.outcomes import GradeOptions, digest_pack
from graders.pack import get_pack
from graders.sandbox import detect_isolation
from graders.stages import grade_share
from graders.submissions import prepare

PACK = get_pack("altnim")
SAMPLES = ["correct", "wrong_eval_sign", "syntax_error", "do_nothing", "helper_function"]


def options() -> GradeOptions:
    return GradeOptions(isolation=detect_isolation(), pack_digest=digest_pack(PACK), root=None)


def prepared(tmp_path: Path):
    folder = PACK.fixtures_dir / "submissions"
    return [prepare(folder / name, PACK, tmp_path / str(i)) for i, name in enumerate(SAMPLES)]


def comparable(result) -> dict:
    data = asdict(result)
    for key in ("graded_at", "seconds"):
        data.pop(key)
    for test in data["tests"]:
        test.pop("seconds")
    return data


@pytest.fixture(scope="module")
def client():
    client = open_client("local:2")
    yield client
    close_client(client)


def test_the_cluster_gives_the_local_results(client, tmp_path: Path):
    submissions = prepared(tmp_path)
    local = {r.student: comparable(r) for r in grade_share(PACK.id, submissions, options())}
    shares = [submissions[:2], submissions[2:]]
    remote = {}
    for _share, results in run_on_cluster(client, PACK.id, shares, options()):
        assert isinstance(results, list), results
        remote.update({r.student: comparable(r) for r in results})
    assert remote == local


def test_a_lost_worker_loses_no_student(client, tmp_path: Path):
    submissions = prepared(tmp_path)
    shares = [[s] for s in submissions]
    pids = list(client.run(os.getpid).values())
    graded: list[str] = []
    for count, (_share, results) in enumerate(run_on_cluster(client, PACK.id, shares, options())):
        if count == 0:
            os.kill(pids[0], signal.SIGKILL)  # a worker dies mid-batch; the nanny restarts it
        assert isinstance(results, list), results
        graded += [r.student for r in results]
    assert sorted(graded) == sorted(s.id for s in submissions)


def test_a_worker_with_another_harness_refuses(tmp_path: Path):
    [submission] = prepared(tmp_path)[:1]
    stale = replace(options(), pack_digest="0" * 64)
    answer = grade_remote(PACK.id, share_json([submission]), options_json(stale))
    with pytest.raises(GraderError, match="differs from the parent's"):
        results_from_answer(answer, [submission], PACK.id)


def test_a_bad_cluster_spec_is_named():
    with pytest.raises(GraderError, match="local:N"):
        open_client("local:zero")


def test_grade_through_the_cluster_writes_the_same_reports(tmp_path: Path):
    import json
    import shutil

    from graders.batch import BatchRequest, grade_batch

    batch = tmp_path / "class"
    for name in SAMPLES:
        shutil.copytree(PACK.fixtures_dir / "submissions" / name, batch / name)
    sources = sorted(batch.iterdir())
    for route, cluster in (("local", None), ("dask", "local:2")):
        grade_batch(BatchRequest(pack=PACK, sources=sources, out_dir=tmp_path / route,
                                 fresh=True, cluster=cluster))
    local, dask = tmp_path / "local", tmp_path / "dask"
    assert (local / "marks.csv").read_bytes() == (dask / "marks.csv").read_bytes()
    for page in (local / "students").glob("*.json"):
        mine, theirs = (json.loads(p.read_text()) for p in (page, dask / "students" / page.name))
        for data in (mine, theirs):
            data.pop("graded_at"), data.pop("seconds")
            for test in data["tests"]:
                test.pop("seconds")
        assert mine == theirs, page.name
