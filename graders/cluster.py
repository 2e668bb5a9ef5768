"""Grade on a Dask cluster: the same :func:`~graders.parallel.grade_share` on other machines.

``grade --cluster tcp://HOST:8786`` sends shares to an existing Dask scheduler;
``--cluster local:N`` starts a :class:`distributed.LocalCluster` of N one-thread worker
processes on this machine. The parent reads every hand-in and ships each share as collected
files (never paths: a worker may not see the parent's disk); the worker rebuilds each
workspace, grades the share in its own sandbox with its own checkout of the harness, and
returns plain results; the parent writes every report. A worker whose pack or harness differs
from the parent's refuses the share, naming both digests: marks must not depend on which
machine graded a student. A share whose worker is lost is re-run by the scheduler on another
worker; the parent takes exactly one result per share, so nothing is reported twice.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from graders.errors import GraderError
from graders.packs import get_pack
from graders.parallel import GradeOptions, ShareResults, grade_share
from graders.results import SubmissionResult
from graders.submissions import Submission, materialize

if TYPE_CHECKING:
    from distributed import Client

LOCAL = "local:"


def open_client(spec: str) -> Client:
    """A client for ``spec``: ``local:N`` (a new local cluster) or a scheduler address."""
    from distributed import Client, LocalCluster

    if spec.startswith(LOCAL):
        count = spec[len(LOCAL):]
        if not count.isdigit() or not 1 <= int(count) <= 256:
            raise GraderError(f"--cluster {spec!r}: `local:N` takes N from 1 to 256")
        cluster = LocalCluster(
            n_workers=int(count), threads_per_worker=1, processes=True,
            dashboard_address=":0", silence_logs=40,
        )
        return Client(cluster)
    try:
        return Client(spec, timeout="20s")
    except (OSError, TimeoutError) as exc:
        raise GraderError(f"--cluster {spec!r}: no Dask scheduler answered ({exc})") from None


def close_client(client: Client) -> None:
    """Close the client, and the local cluster it started, if any."""
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()


def run_on_cluster(
    client: Client, pack_id: str, shares: list[list[Submission]], options: GradeOptions
) -> Generator[tuple[list[Submission], ShareResults], None, None]:
    """Each share with its results (or the exception that lost them), as they complete."""
    from distributed import as_completed

    remote = replace(options, root=None)
    futures = {
        client.submit(grade_remote, pack_id, share, remote, pure=False): share
        for share in shares
    }
    try:
        for future in as_completed(futures):
            try:
                yield futures[future], future.result()
            except Exception as exc:  # noqa: BLE001 - the share's students become grader errors
                yield futures[future], exc
    finally:
        client.cancel(list(futures))


def grade_remote(
    pack_id: str, share: list[Submission], options: GradeOptions
) -> list[SubmissionResult]:
    """On a worker: check the harness matches, rebuild the workspaces, grade the share."""
    from graders.batch import digest_pack

    pack = get_pack(pack_id)
    mine = digest_pack(pack, hidden=not options.public_only)
    if options.pack_digest and mine != options.pack_digest:
        raise GraderError(
            f"this worker's harness or {pack_id} pack differs from the parent's (digest "
            f"{mine[:12]} here, {options.pack_digest[:12]} there): update its checkout and "
            "run `grade setup` on it"
        )
    work_root = Path(tempfile.mkdtemp(prefix="grade-remote-"))
    work_root.chmod(0o755)
    try:
        local = [materialize(s, pack, work_root / str(i)) for i, s in enumerate(share)]
        return grade_share(pack_id, local, options)
    finally:
        shutil.rmtree(work_root, ignore_errors=True)
