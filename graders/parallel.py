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

import contextlib
import multiprocessing
import multiprocessing.context
import os
import signal
from collections.abc import Generator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graders.outcomes import GradeOptions, ShareResults
from graders.pack import get_pack
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

    @contextlib.contextmanager
    def opened(self, pack_id: str, options: GradeOptions, count: int) -> Iterator[PooledRoute]:
        """For a batch of ``count`` submissions: the pool, its workers started now, while the
        parent prepares the submissions (each spends about a second importing the engine);
        on leaving, after the index is written, every worker is gone. One job, or one
        submission: this process grades (see :meth:`grade`)."""
        jobs = min(self.jobs, count)
        pool = _pool(jobs, pack_id, options) if jobs > 1 else None
        route = PooledRoute(self.jobs, pool)
        try:
            yield route
        except BaseException:
            if pool is not None:
                _stop(pool)
            raise
        if pool is not None and route.handed:
            pool.shutdown(wait=True, cancel_futures=True)
        elif pool is not None:  # every result was reused: nothing to wait for
            _stop(pool)


@dataclass(frozen=True)
class PooledRoute(LocalRoute):
    """:class:`LocalRoute` with its pool already started (:meth:`LocalRoute.opened`)."""

    pool: ProcessPoolExecutor | None = None
    handed: list[Submission] = field(default_factory=list)  # what grade was given

    def grade(
        self, pack_id: str, pending: list[Submission], options: GradeOptions,
        writing: Writing | None = None,
    ) -> Generator[Returned, None, None]:
        """Each share with its results, as they complete, graded in the started pool."""
        self.handed.extend(pending)
        return run_shares(pack_id, shares_of(pending, self.jobs), options, self.jobs, writing,
                          pool=self.pool)


def run_shares(
    pack_id: str, shares: list[list[Submission]], options: GradeOptions, jobs: int,
    writing: Writing | None = None, pool: ProcessPoolExecutor | None = None,
) -> Generator[tuple[list[Submission], ShareResults | WrittenShare], None, None]:
    """Each share with its results (or the exception that lost them), as they complete; with
    ``writing``, results the worker has written (a :class:`~graders.stages.WrittenShare`).

    With ``jobs > 1`` the shares go to a process pool (``pool``, else one of its own, whose
    workers are gone when this iterator ends); closing this iterator early (an interrupt, an
    error in the caller) stops every worker."""
    if pool is None and (jobs <= 1 or len(shares) <= 1):
        for share in shares:
            try:
                results: ShareResults | WrittenShare = _task(pack_id, share, options, writing)
            except Exception as exc:  # noqa: BLE001 - as a pool would: the share's rows say why
                results = exc
            yield share, results
        return
    owned = pool is None
    pool = pool or _pool(min(jobs, len(shares)))
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
        if owned:
            pool.shutdown(wait=True, cancel_futures=True)


def _pool(jobs: int, pack_id: str | None = None,
          options: GradeOptions | None = None) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes; given the pack, each starts at once and loads
    what grading it needs (:func:`_warm`)."""
    pool = ProcessPoolExecutor(jobs, mp_context=_start_method(), initializer=_worker_start,
                               initargs=(dict(os.environ),))
    if pack_id is not None and options is not None:
        for _ in range(jobs):  # one task per worker: the pool starts a worker for each
            pool.submit(_warm, pack_id, options)
    return pool


def _warm(pack_id: str, options: GradeOptions) -> None:
    """In a worker, before its first share: the pack loaded (the engine, pytest and
    Hypothesis came with this module)."""
    get_pack(pack_id, options.root)


def _task(
    pack_id: str, share: list[Submission], options: GradeOptions, writing: Writing | None
) -> list[SubmissionResult] | WrittenShare:
    """One share's work in a worker: graded, and written when ``writing`` says where."""
    if writing is None:
        return grade_share(pack_id, share, options)
    return grade_and_write(pack_id, share, options, writing.for_share(share))


def _start_method() -> multiprocessing.context.BaseContext:
    """How workers start: forked from a fork server, a fresh interpreter that imported the
    engine once (each worker of a spawned pool imported it again: about half a second of
    CPU each) and never ran a test, so no thread, lock or pytest state is inherited; spawned
    where there is no fork server. The server lives as long as this process, as
    multiprocessing's resource tracker does."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


def _worker_start(environment: dict[str, str]) -> None:
    """The parent's environment as it is now (the fork server's is the one it had when the
    server started), and the signals: workers leave Ctrl-C to the parent, and clean up their
    sandboxes when terminated."""
    os.environ.clear()
    os.environ.update(environment)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end every worker (each closes its sandboxes first)."""
    # No public handle on them; None once the pool is shut down (stopped already).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(STOP_SECONDS)
        if process.is_alive():
            process.kill()
            process.join()
