"""Mutation testing of a pack: how many planted faults in the reference do its tests catch?

:func:`measure` makes mutants of the reference solution's submitted files (never the locked
starter files, nor the blocks the declaration calls starter code), grades each as a submission
in ONE batch, and sorts them: *caught* (lost any mark, however: a failing test, a crash, a
timeout, a rule), *survived* (full marks: no test noticed), *equivalent* and *handout-silent*
(declared in ``equivalent_mutants.toml``, each claim proved; never scored) and *errors* (a
grader error: the grader failed, not the mutant; listed apart, never scored). The score is
caught / (caught + survived).
"""

from __future__ import annotations

import math
import os
import random
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graders import observe
from graders.batch import BatchRequest, grade_batch
from graders.errors import GraderError
from graders.mutation.claims import refusal
from graders.mutation.equivalents import EQUIVALENT, Claim, Equivalents, load_equivalents
from graders.mutation.mutants import Mutant, block_lines, mutants_of
from graders.mutation.probes import probe_differences
from graders.pack import Pack
from graders.results import SubmissionResult

TARGET = 95.0  # the bar: every pack's tests catch at least 95 % of its mutants
CONTROL = "unmutated-reference"


@dataclass
class MutationRun:
    """What a mutation run found; ``generated`` counts every mutant before sampling.

    ``declared`` holds the excluded mutants still to be checked; once graded, each goes to
    ``equivalent`` or ``silent`` (its claim held) or ``refused`` (it did not: the reason)."""

    pack: str
    generated: int
    caught: list[Mutant] = field(default_factory=list)
    survived: list[Mutant] = field(default_factory=list)
    equivalent: list[tuple[Mutant, str]] = field(default_factory=list)
    silent: list[tuple[Mutant, str]] = field(default_factory=list)
    refused: list[tuple[Mutant, str]] = field(default_factory=list)
    declared: list[tuple[Mutant, Claim]] = field(default_factory=list)
    errors: list[tuple[Mutant, str]] = field(default_factory=list)
    limit: int | None = None
    seed: int = 0
    stale: list[str] = field(default_factory=list)  # listed as equivalent, no longer made

    @property
    def scored(self) -> int:
        return len(self.caught) + len(self.survived)

    @property
    def scorable(self) -> int:
        """Mutants the score is about: every one made, less the declared ones."""
        return self.generated - len(self.declared) - len(self.equivalent) - len(self.silent) \
            - len(self.refused)

    @property
    def sampled(self) -> bool:
        """Whether the graded mutants are a sample, not every scorable one."""
        return self.limit is not None and self.scored + len(self.errors) < self.scorable

    @property
    def score(self) -> float | None:
        """Percentage of non-equivalent, graded mutants caught (None when there is none)."""
        return 100.0 * len(self.caught) / self.scored if self.scored else None

    def interval(self) -> tuple[float, float] | None:
        """The score's 95 % interval (Wilson's) when it comes from a sample, else None."""
        if not self.sampled or not self.scored:
            return None
        n, share, z = self.scored, len(self.caught) / self.scored, 1.96
        middle = (share + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return round(100 * max(0.0, middle - half), 1), round(100 * min(1.0, middle + half), 1)

    def record(self) -> dict[str, Any]:
        """The JSON that ``--record`` keeps in the pack folder."""
        return {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "generated": self.generated, "graded": self.scored + len(self.errors),
            "limit": self.limit if self.sampled else None, "seed": self.seed,
            "scorable": self.scorable, "scored": self.scored,
            "caught": len(self.caught), "survived": len(self.survived),
            "equivalent": len(self.equivalent), "handout_silent": len(self.silent),
            "refused": len(self.refused), "errors": len(self.errors),
            "score": round(self.score, 1) if self.score is not None else None,
            "interval": self.interval(),
            "survivors": [m.summary() for m in self.survived],
        }


def all_mutants(pack: Pack) -> list[Mutant]:
    """Every mutant of the reference's submitted files, starter-owned blocks left out."""
    starter = pack.declaration.submission.starter_owned
    found = []
    for name in pack.submitted_files:
        path = pack.reference_dir / name
        if name in pack.declaration.locked.files or not path.is_file():
            continue
        source = path.read_text(encoding="utf-8")
        found += mutants_of(source, name, block_lines(source, starter.get(name, [])))
    return found


def plan(pack: Pack, *, limit: int | None = None,
         seed: int = 0) -> tuple[MutationRun, list[Mutant]]:
    """The run so far (equivalents set aside) and the mutants to grade: all of them, or a
    reproducible sample of ``limit`` chosen with ``seed``."""
    equivalents = load_equivalents(pack)
    blocks = _block_reasons(pack, equivalents)
    mutants = all_mutants(pack)
    run = MutationRun(pack=pack.id, generated=len(mutants), limit=limit, seed=seed)
    to_grade = []
    for mutant in mutants:
        claim = _equivalent(mutant, equivalents, blocks)
        if claim is not None:
            run.declared.append((mutant, claim))
        else:
            to_grade.append(mutant)
    run.stale = sorted(set(equivalents.mutants) - {m.id for m in mutants})
    if limit is not None and limit < len(to_grade):
        to_grade = sorted(random.Random(seed).sample(to_grade, limit), key=_order)
    return run, to_grade


def grade_mutants(pack: Pack, run: MutationRun, mutants: list[Mutant], *, jobs: int = 1,
                  progress: Callable[[SubmissionResult], None] | None = None) -> MutationRun:
    """Grade ``mutants`` and the declared ones (and the unmutated reference, which must get
    full marks) in one batch; sort each into ``run``, checking each declared claim."""
    declared = [mutant for mutant, _ in run.declared]
    with tempfile.TemporaryDirectory(prefix="grade-observe-") as watch:
        for student in [CONTROL, *(m.id for m in declared)]:
            (Path(watch) / f"{student}.jsonl").touch()
        results = _grade(pack, [*mutants, *declared], jobs, progress, watch)
        _check_control(pack, results.pop(CONTROL, None))
        full = pack.declaration.max_points
        for mutant in mutants:
            _sort(run, mutant, results.get(mutant.id), full)
        _check_claims(pack, run, results, Path(watch))
    return run


def _check_claims(pack: Pack, run: MutationRun, results: dict[str, SubmissionResult],
                  watch: Path) -> None:
    """Sort each declared mutant by whether its claim holds (:func:`refusal`)."""
    reference = observe.read_transcript(watch / f"{CONTROL}.jsonl")
    if run.declared and not reference:
        raise GraderError(f"{pack.id}: nothing the unmutated reference answered was "
                          "recorded, so no exclusion can be checked")
    for mutant, claim in run.declared:
        found = observe.differences(reference,
                                    observe.read_transcript(watch / f"{mutant.id}.jsonl"))
        if claim.probes:
            found += probe_differences(pack, mutant, list(claim.probes))
        why = refusal(claim, results.get(mutant.id), pack.declaration.max_points, found)
        kept = run.equivalent if claim.kind == EQUIVALENT else run.silent
        (kept if why is None else run.refused).append((mutant, why or claim.reason))
    run.declared = []


def measure(pack: Pack, *, jobs: int = 1, limit: int | None = None,
            seed: int = 0) -> MutationRun:
    """Plan and grade in one call: see :func:`plan` and :func:`grade_mutants`."""
    run, mutants = plan(pack, limit=limit, seed=seed)
    return grade_mutants(pack, run, mutants, jobs=jobs)


def _order(mutant: Mutant) -> tuple[str, int, str]:
    return mutant.file, mutant.line, mutant.operator


def _equivalent(mutant: Mutant, equivalents: Equivalents,
                blocks: dict[tuple[str, int], Claim]) -> Claim | None:
    if mutant.id in equivalents.mutants:
        return equivalents.mutants[mutant.id]
    if mutant.id in equivalents.excepted:
        return None
    return blocks.get((mutant.file, mutant.line))


def _block_reasons(pack: Pack, equivalents: Equivalents) -> dict[tuple[str, int], Claim]:
    """(file, line) -> claim, for each line of a declared block."""
    reasons = {}
    for (name, block), why in equivalents.blocks.items():
        path = pack.reference_dir / name
        if path.is_file():
            for line in block_lines(path.read_text(encoding="utf-8"), [block]):
                reasons[(name, line)] = why
    return reasons


def _grade(pack: Pack, mutants: list[Mutant], jobs: int,
           progress: Callable[[SubmissionResult], None] | None,
           watch: str = "") -> dict[str, SubmissionResult]:
    """Each mutant as a submission (the reference's files, one of them mutated), plus the
    unmutated reference as a control, all in one batch; the answers of the submissions with a
    transcript file in ``watch`` are recorded there."""
    folder = Path(tempfile.mkdtemp(prefix="grade-mutants-"))
    before = os.environ.get(observe.ENV)
    os.environ[observe.ENV] = watch  # the pool's processes inherit it
    try:
        sources = [_workspace(pack, folder / CONTROL, None)]
        sources += [_workspace(pack, folder / m.id, m) for m in mutants]
        outcome = grade_batch(BatchRequest(pack=pack, sources=sources, out_dir=None,
                                           fresh=True, jobs=jobs, progress=progress))
    finally:
        if before is None:
            os.environ.pop(observe.ENV, None)
        else:
            os.environ[observe.ENV] = before
        shutil.rmtree(folder, ignore_errors=True)
    return {result.student: result for result in outcome.results}


def _workspace(pack: Pack, target: Path, mutant: Mutant | None) -> Path:
    target.mkdir(parents=True)
    for name in pack.submitted_files:
        path = pack.reference_dir / name
        if path.is_file():
            shutil.copyfile(path, target / name)
    if mutant is not None:
        (target / mutant.file).write_text(mutant.source, encoding="utf-8")
    return target


def _check_control(pack: Pack, control: SubmissionResult | None) -> None:
    full = pack.declaration.max_points
    if control is None or control.status != "graded" or control.total < full - 0.005:
        got = "no result" if control is None else (
            f"{control.total:g}/{full:g} ({control.status}) {control.grader_errors}")
        raise GraderError(f"{pack.id}: the unmutated reference does not get full marks: {got}; "
                          "fix the pack before measuring its tests")


def _sort(run: MutationRun, mutant: Mutant, result: SubmissionResult | None,
          full: float) -> None:
    if result is None or result.status == "grader-error":
        why = "; ".join(result.grader_errors) if result else "no result came back"
        run.errors.append((mutant, why or "grader error"))
    elif result.total < full - 0.005:
        run.caught.append(mutant)
    else:
        run.survived.append(mutant)
