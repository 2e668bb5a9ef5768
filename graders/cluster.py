"""Grade on a Dask cluster: the same :func:`~graders.stages.grade_share` on other machines.

:class:`ClusterRoute` is the route the batch hands the pipeline for ``--cluster``: it checks
the access before anything is graded (:mod:`graders.cluster_access`: TLS certificates of one
CA, or ``local:N``, a :class:`distributed.LocalCluster` of N one-thread worker processes on
127.0.0.1 secured with a throw-away CA of its own; plain TCP only when asked for; never the
rlimits fallback), then sends the shares to the scheduler.

What crosses the network is data: the task is the harness's own :func:`grade_remote` with two
JSON strings (the share's collected files, never paths, and the options), and its answer is
one JSON string, validated against the result model (:mod:`graders.cluster_wire`) before any
use. The client deserialises msgpack only, so a worker's pickle is refused, never loaded; an
errored task's exception (which Dask ships pickled) is never read. The parent writes every
report. A worker whose pack or harness differs from the parent's refuses the share, naming
both digests. A share whose worker is lost is re-run by the scheduler on another worker; the
parent takes exactly one result per share, so nothing is reported twice.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import traceback
from collections.abc import Generator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from graders.cluster_access import LOCAL, ClusterAccess, check_access, security_for
from graders.cluster_wire import (
    error_answer,
    options_from_json,
    options_json,
    results_answer,
    results_from_answer,
    share_from_json,
    share_json,
)
from graders.errors import GraderError
from graders.outcomes import GradeOptions, ShareResults, digest_pack
from graders.pack import get_pack
from graders.results import SubmissionResult
from graders.sandbox import Isolation
from graders.sandbox.isolation import detect_isolation
from graders.stages import Writing, grade_share, shares_of
from graders.submissions import Submission, materialize

if TYPE_CHECKING:
    from distributed import Client

    from graders.pipeline import Returned  # the protocol this route meets

ONLY_MSGPACK = ["msgpack"]  # what the client deserialises: data, never a pickle


@dataclass(frozen=True)
class ClusterRoute:
    """The :class:`~graders.pipeline.Route` that grades on the workers of a Dask cluster
    (other machines: the parent writes every report)."""

    access: ClusterAccess
    shares_files = False  # a worker's file system is not the parent's

    def check(self, isolation: Isolation | None) -> None:
        """Refuse, before anything is graded, a cluster that must not grade (GraderError)."""
        check_access(self.access, isolation)

    def opened(self, pack_id: str, options: GradeOptions,
               count: int) -> contextlib.AbstractContextManager[ClusterRoute]:
        """This route: its client is opened when the shares are handed out."""
        return contextlib.nullcontext(self)

    def grade(
        self, pack_id: str, pending: list[Submission], options: GradeOptions,
        writing: Writing | None = None,
    ) -> Generator[Returned, None, None]:
        """Each share with its validated results, as they complete: one share per worker
        the scheduler has (at most SHARE_SIZE students each). ``writing`` is never used."""
        client = open_client(self.access, options.isolation)
        try:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            yield from run_on_cluster(client, pack_id, shares_of(pending, workers), options)
        finally:
            close_client(client)


def open_client(access: ClusterAccess | str, isolation: Isolation | None = None) -> Client:
    """A client for ``access``: a new secured local cluster, or a scheduler's address."""
    from distributed import Client, LocalCluster
    from distributed.security import Security

    access = ClusterAccess.of(access)
    check_access(access, isolation)
    if access.spec.startswith(LOCAL):
        security = Security.temporary()
        cluster = LocalCluster(
            n_workers=int(access.spec[len(LOCAL):]), threads_per_worker=1, processes=True,
            host="127.0.0.1", protocol="tls", security=security, dashboard_address="127.0.0.1:0",
            silence_logs=40,
        )
        return Client(cluster, security=security, deserializers=ONLY_MSGPACK)
    security = security_for(access.certs) if access.certs else None
    try:
        return Client(access.spec, timeout="20s", security=security,
                      deserializers=ONLY_MSGPACK)
    except (OSError, TimeoutError) as exc:
        raise GraderError(f"--cluster {access.spec!r}: no Dask scheduler answered ({exc}); with "
                          "TLS, check that its certificates come from the same CA") from None


def close_client(client: Client) -> None:
    """Close the client, and the local cluster it started, if any."""
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()


def run_on_cluster(
    client: Client, pack_id: str, shares: list[list[Submission]], options: GradeOptions
) -> Generator[tuple[list[Submission], ShareResults], None, None]:
    """Each share with its validated results (or the exception that lost them), as they
    complete."""
    from distributed import as_completed

    plain_options = options_json(replace(options, root=None))
    futures = {}
    for share in shares:
        try:
            payload = share_json(share)
        except Exception as exc:  # noqa: BLE001 - this share's students become grader errors
            yield share, exc
            continue
        futures[client.submit(grade_remote, pack_id, payload, plain_options, pure=False)] = share
    try:
        for future in as_completed(futures):
            yield futures[future], _answer_of(future, futures[future], pack_id)
    finally:
        client.cancel(list(futures))


def _answer_of(future: object, share: list[Submission], pack_id: str) -> ShareResults:
    """The share's results from the worker's JSON answer; never reads a pickled exception."""
    if getattr(future, "status", "") != "finished":
        return GraderError(f"the cluster lost this share (task {getattr(future, 'status', '?')}: "
                           "a worker died or refused it; the scheduler's log says why)")
    try:
        return results_from_answer(future.result(), share, pack_id)  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001 - a bad answer makes grader errors, nothing else
        return GraderError(f"the worker's answer was refused: {exc}"[:1500])


def grade_remote(pack_id: str, share: str, options: str) -> str:
    """On a worker: check the harness matches, rebuild the workspaces, grade the share; the
    answer is JSON (results, or the error that stopped the share), never an exception."""
    try:
        return results_answer(_grade_remote(pack_id, share_from_json(share),
                                            options_from_json(options)))
    except GraderError as exc:
        return error_answer(str(exc))
    except Exception:  # noqa: BLE001 - a worker's failure travels as text
        return error_answer(f"grading failed on the worker:\n{traceback.format_exc()[-3000:]}")


def _grade_remote(
    pack_id: str, share: list[Submission], options: GradeOptions
) -> list[SubmissionResult]:
    if (options.isolation or detect_isolation()) is Isolation.RLIMITS:
        raise GraderError("this worker grades only inside the sandbox (bubblewrap)")
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
