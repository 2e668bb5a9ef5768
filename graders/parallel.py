"""The local routes of a batch: shares of prepared submissions, graded here or in a pool.

:class:`LocalRoute` is the route the batch hands the pipeline when it grades on this machine.
A share is a few prepared submissions (:func:`graders.stages.shares_of`).
:func:`graders.stages.grade_share` grades them in ONE pytest session and returns plain,
picklable results; it writes nothing. :func:`run_shares` runs the shares in this process
(``jobs=1``) or in a :class:`~concurrent.futures.ProcessPoolExecutor`, and yields each share's
results as its future completes. Given a :class:`~graders.stages.Writing`, the worker that
graded a share also writes its students' reports (:func:`~graders.stages.grade_and_write`):
the parent, one process on cores the workers share, then only logs each result and writes the
index. The same functions can be submitted to any other executor (a Dask cluster's
``client.submit``) unchanged.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Generator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TYPE_CHECKING

from graders.outcomes import GradeOptions, ShareResults
from graders.results import SubmissionResult
from graders.sandbox import Isolation
from graders.stages import Writing, WrittenShare, grade_and_write, grade_share, shares_of
from graders.submissions import Submission

if TYPE_CHECKING:  # the protocol this route meets: the pipeline hands it the shares
    from graders.pipeline import Returned

STOP_SECONDS = 10.0


@dataclass(frozen=True)
class LocalRoute:
    """The :class:`~graders.pipeline.Route` that grades on this machine: in this process
    (``jobs`` 1) or in a pool of ``jobs`` worker processes, each of which writes its
    students' reports."""

    jobs: int = 1
    shares_files = True  # the workers write into the parent's output folder

    def check(self, isolation: Isolation | None) -> None:
        """Nothing to refuse: this machine's isolation was checked by the pipeline."""

    def grade(
        self, pack_id: str, pending: list[Submission], options: GradeOptions,
        writing: Writing | None = None,
    ) -> Generator[Returned, None, None]:
        """Each share with its results, as they complete (:func:`run_shares`)."""
        return run_shares(pack_id, shares_of(pending, self.jobs), options, self.jobs, writing)


def run_shares(
    pack_id: str, shares: list[list[Submission]], options: GradeOptions, jobs: int,
    writing: Writing | None = None,
) -> Generator[tuple[list[Submission], ShareResults | WrittenShare], None, None]:
    """Each share with its results (or the exception that lost them), as they complete; with
    ``writing``, results the worker has written (a :class:`~graders.stages.WrittenShare`).

    With ``jobs > 1`` the shares go to a process pool; closing this iterator early (an
    interrupt, an error in the caller) stops every worker, and it never returns before its
    workers are gone."""
    if jobs <= 1 or len(shares) <= 1:
        for share in shares:
            try:
                results: ShareResults | WrittenShare = _task(pack_id, share, options, writing)
            except Exception as exc:  # noqa: BLE001 - as a pool would: the share's rows say why
                results = exc
            yield share, results
        return
    context = multiprocessing.get_context("spawn")  # no inherited threads, locks or pytest state
    pool = ProcessPoolExecutor(min(jobs, len(shares)), mp_context=context,
                               initializer=_worker_signals)
    try:
        futures: dict[Future[list[SubmissionResult] | WrittenShare], list[Submission]] = {
            pool.submit(_task, pack_id, share, options, writing): share for share in shares
        }
        for future in as_completed(futures):
            error = future.exception()
            yield futures[future], error if error is not None else future.result()
    except BaseException:
        _stop(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _task(
    pack_id: str, share: list[Submission], options: GradeOptions, writing: Writing | None
) -> list[SubmissionResult] | WrittenShare:
    """One share's work in a worker: graded, and written when ``writing`` says where."""
    if writing is None:
        return grade_share(pack_id, share, options)
    return grade_and_write(pack_id, share, options, writing.for_share(share))


def _worker_signals() -> None:
    """Workers leave Ctrl-C to the parent, and clean up their sandboxes when terminated."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end every worker (each closes its sandboxes first)."""
    processes = list(getattr(pool, "_processes", {}).values())  # no public handle on them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(STOP_SECONDS)
        if process.is_alive():
            process.kill()
            process.join()
