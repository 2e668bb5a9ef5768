"""`grade cluster-certs DIR`: a CA and the scheduler, worker and client certificates."""

from __future__ import annotations

from pathlib import Path

import click

from graders import console
from graders.certificates import DEFAULT_DAYS, make_cluster_certs
from graders.commands import register

NEXT_STEPS = """\
Start the scheduler on a private address (HOST), with DIR's scheduler files:
  dask scheduler --host HOST --protocol tls --no-dashboard --tls-ca-file {d}/ca.pem \\
    --tls-cert {d}/scheduler.pem --tls-key {d}/scheduler-key.pem
On each worker (copy it ca.pem, worker.pem and worker-key.pem only):
  dask worker tls://HOST:8786 --nthreads 1 --no-dashboard --tls-ca-file ca.pem \\
    --tls-cert worker.pem --tls-key worker-key.pem
Then grade:
  grade SUBMISSIONS/ --cluster tls://HOST:8786 --cluster-certs {d}
Keep ca-key.pem off the workers; a new DIR (a new CA) revokes every old certificate."""


@register
@click.command("cluster-certs")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--host", "hosts", multiple=True,
              help="A name or IP address of the scheduler or a worker (repeatable).")
@click.option("--days", type=click.IntRange(1, 3650), default=DEFAULT_DAYS, show_default=True,
              help="How long the certificates stay valid.")
def command(folder: Path, hosts: tuple[str, ...], days: int) -> None:
    """Make a certificate authority and TLS certificates for a Dask grading cluster in
    FOLDER (see README, Grading on a cluster)."""
    for path in make_cluster_certs(folder, hosts, days):
        console.out.print(f"wrote {path}", markup=False)
    console.out.print(NEXT_STEPS.format(d=folder), markup=False, soft_wrap=True)
