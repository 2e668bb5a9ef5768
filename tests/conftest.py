"""Shared fixtures for the harness's own tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from graders.batch import BatchOutcome
from graders.packs import get_pack
from graders.selfcheck import grade_samples

_GRADED: dict[str, tuple[BatchOutcome, Path]] = {}


@pytest.fixture(scope="session")
def graded_samples(tmp_path_factory: pytest.TempPathFactory):
    """``graded_samples(pack_id) -> (outcome, report_dir)``: each pack's samples graded once
    per test session, in one batch, with reports written."""

    def grade(pack_id: str) -> tuple[BatchOutcome, Path]:
        if pack_id not in _GRADED:
            out = tmp_path_factory.mktemp(f"reports-{pack_id}")
            _GRADED[pack_id] = (grade_samples(get_pack(pack_id), out), out)
        return _GRADED[pack_id]

    return grade


@pytest.fixture(scope="session")
def sample_results(graded_samples):
    """``sample_results(pack_id) -> {student: SubmissionResult}`` of the graded samples."""

    def of(pack_id: str):
        outcome, _ = graded_samples(pack_id)
        return {result.student: result for result in outcome.results}

    return of


@pytest.fixture
def starter_kit(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A fresh copy of the starter kit of the requesting test module's ``PACK``."""
    kit = tmp_path / "kit"
    shutil.copytree(request.module.PACK.templates_dir, kit)
    return kit
