"""The pipeline runs the stages top to bottom on the route the batch hands it: it never
chooses a route itself, and a route that refuses grades nobody."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Generator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graders import batch
from graders.batch import BatchRequest, grade_batch
from graders.cluster import ClusterRoute
from graders.cluster_access import ClusterAccess
from graders.errors import GraderError
from graders.outcomes import GradeOptions
from graders.pack import get_pack
from graders.parallel import LocalRoute
from graders.pipeline import Returned, run_pipeline
from graders.sandbox import Isolation
from graders.selfcheck import mismatches
from graders.stages import SHARE_SIZE, Writing, grade_share, shares_of
from graders.submissions import Submission

TOY = get_pack("subtract_square", Path(__file__).parents[1] / "toy")
SAMPLES = TOY.fixtures_dir / "submissions"


class Recording:
    """A route of the test's own: grades each share here, and records what it was handed."""

    shares_files = False

    def __init__(self, refusal: str = "") -> None:
        self.refusal = refusal
        self.checked: list[Isolation | None] = []
        self.handed: list[str] = []
        self.opened_for: list[int] = []

    def opened(self, pack_id: str, options: GradeOptions,
               count: int) -> contextlib.AbstractContextManager[Recording]:
        self.opened_for.append(count)
        return contextlib.nullcontext(self)

    def check(self, isolation: Isolation | None) -> None:
        self.checked.append(isolation)
        if self.refusal:
            raise GraderError(self.refusal)

    def grade(
        self, pack_id: str, pending: list[Submission], options: GradeOptions,
        writing: Writing | None = None,
    ) -> Generator[Returned, None, None]:
        assert writing is None  # this route's workers do not share the parent's files
        self.handed += [s.id for s in pending]
        yield pending, grade_share(pack_id, pending, options)


def test_the_pipeline_grades_on_the_route_it_is_handed(tmp_path: Path):
    route, out = Recording(), tmp_path / "out"
    request = BatchRequest(pack=TOY, sources=[SAMPLES / "correct", SAMPLES / "syntax_error"],
                           out_dir=out)
    outcome = run_pipeline(request, route)
    assert route.checked == [outcome.isolation]
    assert route.handed == ["correct", "syntax_error"] and route.opened_for == [2]
    for result in outcome.results:
        expected = json.loads((SAMPLES / result.student / "expected.json").read_text("utf-8"))
        assert mismatches(result, expected) == []
        assert (out / "students" / f"{result.student}.json").is_file()  # the parent wrote it
    again = run_pipeline(request, second := Recording())
    assert second.handed == [] and again.reused == 2  # unchanged: nothing handed out


def test_a_route_that_refuses_grades_nobody(tmp_path: Path):
    route = Recording(refusal="not on this route")
    request = BatchRequest(pack=TOY, sources=[SAMPLES / "correct"], out_dir=tmp_path / "out",
                           isolation=Isolation.RLIMITS)
    with pytest.raises(GraderError, match="not on this route"):
        run_pipeline(request, route)
    assert route.checked == [Isolation.RLIMITS] and route.handed == []
    assert not (tmp_path / "out").exists()  # not even the log


@pytest.mark.parametrize(("asked", "route"), [
    ({}, LocalRoute(1)),
    ({"jobs": 3}, LocalRoute(3)),
    ({"cluster": "local:2"}, ClusterRoute(ClusterAccess("local:2"))),
    ({"cluster": ClusterAccess("tls://h:8786", Path("certs"))},
     ClusterRoute(ClusterAccess("tls://h:8786", Path("certs")))),
])
def test_the_batch_chooses_the_route_and_hands_it_down(monkeypatch, asked, route):
    handed = []
    monkeypatch.setattr(batch, "run_pipeline", lambda request, chosen: handed.append(chosen))
    grade_batch(BatchRequest(pack=TOY, sources=[], **asked))
    assert handed == [route]


@given(students=st.integers(0, 2500), workers=st.integers(1, 64))
def test_shares_are_even_and_keep_every_worker_busy_to_the_end(students, workers):
    """Every student once, in order; at most SHARE_SIZE a share; sizes one apart; and as many
    shares as a multiple of the workers (when there are students enough), so no worker is
    left grading a short last share alone."""
    pending = list(range(students))
    shares = shares_of(pending, workers)  # type: ignore[arg-type]
    assert [student for share in shares for student in share] == pending
    sizes = [len(share) for share in shares]
    assert all(0 < size <= SHARE_SIZE for size in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1
    assert len(shares) == students or len(shares) % workers == 0
    assert students == 0 or len(shares) <= students
