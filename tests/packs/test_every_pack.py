"""The self-checks every pack must pass (DESIGN.md, "Self-checks that keep the packs honest").

Packs are discovered, so a sixth assignment is checked here with no edit: its reference scores
full marks, each sample submission gets exactly the marks its expected.json declares, grading
the samples raises no grader error, and its golden files match what the reference prints now.
Pack-specific checks live beside each pack in tests/packs/<id>/.
"""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path

import pytest

from graders.cli import main
from graders.golden import stale_golden
from graders.pack import Pack, discover_packs
from graders.selfcheck import (
    DO_NOTHING,
    declaration_problems,
    expected_by_student,
    mismatches,
    sample_sources,
)
from graders.submissions import student_id

PACKS = discover_packs()
# Collection lists the samples' folders; their expected.json is read when a test needs it.
SAMPLES = [(pack_id, student_id(path)) for pack_id in sorted(PACKS)
           for path in sorted(sample_sources(PACKS[pack_id]))]


@cache
def expected(pack_id: str) -> dict[str, dict]:
    return expected_by_student(PACKS[pack_id])


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_pack_declares_what_every_pack_needs(pack_id):
    """Enough samples, a do_nothing sample, a handout citation on every criterion and rule."""
    assert declaration_problems(PACKS[pack_id]) == []


@pytest.mark.parametrize(("pack_id", "student"), SAMPLES)
def test_sample_gets_expected_marks(sample_results, pack_id, student):
    graded = sample_results(pack_id)
    assert student in graded, f"sample {student} was not graded"
    assert mismatches(graded[student], expected(pack_id)[student]) == []


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_samples_are_graded_without_grader_error(graded_samples, pack_id):
    outcome, _ = graded_samples(pack_id)
    assert outcome.ok, [r.grader_errors for r in outcome.results if r.grader_errors]


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_doing_nothing_earns_at_most_a_tenth(sample_results, pack_id):
    """No vacuous credit: game functions that return constants or their input unchanged."""
    result = sample_results(pack_id)[DO_NOTHING]
    assert result.total <= PACKS[pack_id].declaration.max_points / 10


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_reference_solution_scores_full_marks(reference_and_bare, pack_id):
    result, _ = reference_and_bare(pack_id)
    assert result.status == "graded", result.grader_errors
    failed = [f"{t.name}[{t.case}]: {t.message}" for t in result.tests if t.outcome != "passed"]
    assert result.total == PACKS[pack_id].declaration.max_points, failed


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_bare_template_is_graded_and_earns_at_most_a_tenth(reference_and_bare, pack_id):
    """The starter kit handed in untouched: a mark and reasons, never a grader error."""
    _, result = reference_and_bare(pack_id)
    assert result.status == "graded", result.grader_errors
    assert result.total <= PACKS[pack_id].declaration.max_points / 10
    assert any(t.outcome == "failed" and t.message for t in result.tests)


def starter_kit_with(pack: Pack, folder: Path, files_from: Path) -> Path:
    """The starter kit, with a submission's files copied into it as a student would."""
    shutil.copytree(pack.templates_dir, folder)
    shutil.copytree(files_from, folder, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("expected.json", "__pycache__"))
    return folder


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_precheck_passes_on_the_reference_and_never_reads_hidden_material(
        pack_id, tmp_path, monkeypatch, capsys):
    pack = PACKS[pack_id]
    kit = starter_kit_with(pack, tmp_path / "kit", pack.reference_dir)
    hidden = [pack.reference_dir.resolve(), pack.fixtures_dir.resolve()]
    real_open = Path.open

    def guarded_open(self: Path, *args, **kwargs):
        assert not any(folder in self.resolve().parents for folder in hidden), f"read {self}"
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", guarded_open)
    assert main(["check", "-a", pack_id, str(kit)]) == 0
    assert "All public tests pass" in capsys.readouterr().out


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_precheck_names_the_public_test_doing_nothing_fails(pack_id, tmp_path, capsys):
    pack = PACKS[pack_id]
    sample = pack.fixtures_dir / "submissions" / DO_NOTHING
    kit = starter_kit_with(pack, tmp_path / "kit", sample)
    assert main(["check", "-a", pack_id, str(kit)]) == 1
    assert "FAIL test_" in capsys.readouterr().out


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_golden_files_are_current(pack_id):
    assert stale_golden(PACKS[pack_id]) == []
