"""Grade a batch of submissions of one assignment: the engine's main job.

:func:`grade_batch` chooses the route the shares are graded on (this process or a pool of
worker processes, :class:`~graders.parallel.LocalRoute`; a Dask cluster,
:class:`~graders.cluster.ClusterRoute`) and hands it, with the request, to
:func:`~graders.pipeline.run_pipeline`, which runs the stages top to bottom. The batch is
entered once and never returned to: the pipeline below it knows the route only as the object
it was handed.
"""

from __future__ import annotations

from graders.cluster import ClusterRoute
from graders.cluster_access import ClusterAccess
from graders.outcomes import BatchOutcome
from graders.parallel import LocalRoute
from graders.pipeline import SETUP_COMMAND, BatchRequest, Route, run_pipeline

__all__ = ["SETUP_COMMAND", "BatchRequest", "grade_batch"]


def grade_batch(request: BatchRequest) -> BatchOutcome:
    """Grade ``request.sources`` on the route it asks for; never raises for one student's
    problem (:func:`~graders.pipeline.run_pipeline` says what refuses to start)."""
    route = _route(request)
    return run_pipeline(request, route)


def _route(request: BatchRequest) -> Route:
    """A Dask cluster when ``request.cluster`` names one, else this machine with
    ``request.jobs`` worker processes."""
    if request.cluster is None:
        return LocalRoute(request.jobs)
    return ClusterRoute(ClusterAccess.of(request.cluster))
