"""Who may reach a Dask cluster, and how: the access an instructor names with ``--cluster``.

``--cluster local:N`` is a cluster of N workers on this machine, secured with a throw-away CA
of its own; ``--cluster tls://HOST:PORT --cluster-certs DIR`` a scheduler whose scheduler,
workers and client authenticate each other with certificates of one CA (made by
``grade cluster-certs DIR``; Dask's own :class:`distributed.security.Security`, mutual TLS). A
plain ``tcp://`` address is refused unless the instructor passes ``--insecure-cluster``, and
then a warning names the risk. The rlimits fallback never grades on a cluster. Checked before
anything is graded (:func:`check_access`); below the batch, so that a request can name its
cluster without importing the route that grades on it (:mod:`graders.cluster`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from graders.errors import GraderError
from graders.sandbox import Isolation

if TYPE_CHECKING:
    from distributed.security import Security

LOCAL, TLS, TCP = "local:", "tls://", "tcp://"
CA_FILE = "ca.pem"
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

    @classmethod
    def of(cls, cluster: ClusterAccess | str) -> ClusterAccess:
        """``cluster`` as an access (a bare spec has no certificates and is not insecure)."""
        return cluster if isinstance(cluster, ClusterAccess) else cls(cluster)


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
