"""Grade on a Dask cluster: the same :func:`~graders.stages.grade_share` on other machines.

``grade --cluster tls://HOST:8786 --cluster-certs DIR`` sends shares to a Dask scheduler whose
scheduler, workers and client authenticate each other with TLS certificates of one CA (made by
``grade cluster-certs DIR``; Dask's own :class:`distributed.security.Security`, mutual TLS).
``--cluster local:N`` starts a :class:`distributed.LocalCluster` of N one-thread worker
processes on 127.0.0.1, secured with a throw-away CA of its own. A plain ``tcp://`` address
is refused unless the instructor passes ``--insecure-cluster``, and then a warning names the
risk. The rlimits fallback never grades on a cluster: workers grade only inside the sandbox.

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

import shutil
import tempfile
import traceback
from collections.abc import Generator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

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
from graders.stages import grade_share
from graders.submissions import Submission, materialize

if TYPE_CHECKING:
    from distributed import Client
    from distributed.security import Security

LOCAL, TLS, TCP = "local:", "tls://", "tcp://"
ROLES = ("scheduler", "worker", "client")
CA_FILE = "ca.pem"
ONLY_MSGPACK = ["msgpack"]  # what the client deserialises: data, never a pickle
INSECURE_WARNING = (
    "--insecure-cluster: the scheduler at {spec} is reached over plain TCP. Anyone who can "
    "reach it can connect as a client or a worker: run code on the scheduler and the workers, "
    "read every student's files, forge marks and make `grade` load a pickle (code run as this "
    "user). Use `grade cluster-certs DIR` and --cluster tls://... instead."
)


@dataclass(frozen=True)
class ClusterAccess:
    """Where the cluster is and how to reach it: ``local:N``, ``tls://HOST:PORT`` with the
    certificates folder, or ``tcp://HOST:PORT`` only when ``insecure`` is asked for."""

    spec: str
    certs: Path | None = None
    insecure: bool = False


def cert_paths(certs: Path, role: str) -> tuple[Path, Path, Path]:
    """The CA certificate, and ``role``'s certificate and key, in a ``grade cluster-certs``
    folder."""
    return certs / CA_FILE, certs / f"{role}.pem", certs / f"{role}-key.pem"


def check_access(access: ClusterAccess, isolation: Isolation | None) -> list[str]:
    """Refuse what must not grade (GraderError); return the warnings to print."""
    spec = access.spec
    if isolation is Isolation.RLIMITS:
        raise GraderError(
            "--cluster with --isolation rlimits: workers grade only inside the sandbox "
            "(without bubblewrap a student's code would run beside the Dask worker, as its "
            "user). Install bubblewrap on every worker, or grade here without --cluster."
        )
    if spec.startswith(LOCAL):
        count = spec[len(LOCAL):]
        if not count.isdigit() or not 1 <= int(count) <= 256:
            raise GraderError(f"--cluster {spec!r}: `local:N` takes N from 1 to 256")
        return []
    if spec.startswith(TLS):
        if access.certs is None:
            raise GraderError(
                f"--cluster {spec}: a TLS cluster needs --cluster-certs DIR (the folder "
                "`grade cluster-certs DIR` made, holding ca.pem, client.pem, client-key.pem)"
            )
        missing = [p.name for p in cert_paths(access.certs, "client") if not p.is_file()]
        if missing:
            raise GraderError(f"--cluster-certs {access.certs}: missing {', '.join(missing)} "
                              "(make them with `grade cluster-certs DIR`)")
        return []
    if spec.startswith(TCP) or "://" not in spec:
        if not access.insecure:
            raise GraderError(
                f"--cluster {spec}: refusing a scheduler reached without TLS (anyone on the "
                "network could join it as a client or worker and run code in `grade`). Make "
                "certificates with `grade cluster-certs DIR` and use --cluster tls://HOST:PORT "
                "--cluster-certs DIR, or pass --insecure-cluster to accept the risk."
            )
        return [INSECURE_WARNING.format(spec=spec)]
    raise GraderError(f"--cluster {spec!r}: use local:N, tls://HOST:PORT or tcp://HOST:PORT")


def security_for(certs: Path, role: str = "client") -> Security:
    """Dask's mutual-TLS security for ``role`` from a ``grade cluster-certs`` folder."""
    from distributed.security import Security

    ca, cert, key = cert_paths(certs, role)
    fields = {f"tls_{role}_cert": str(cert), f"tls_{role}_key": str(key)}
    return Security(tls_ca_file=str(ca), require_encryption=True, **fields)


def open_client(access: ClusterAccess | str, isolation: Isolation | None = None) -> Client:
    """A client for ``access``: a new secured local cluster, or a scheduler's address."""
    from distributed import Client, LocalCluster
    from distributed.security import Security

    access = access if isinstance(access, ClusterAccess) else ClusterAccess(access)
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
