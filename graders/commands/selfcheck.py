"""`grade selfcheck ID [--mutants]`: the pack's samples get their expected marks; with
``--mutants``, how many planted faults in the reference its tests catch (docs/mutation-testing.md).
"""

from __future__ import annotations

import sys

import click

from graders import console
from graders.commands import register
from graders.mutation import TARGET, MutationRun, grade_mutants, plan
from graders.mutation.equivalents import EQUIVALENTS, write_record
from graders.mutation.mutants import Mutant
from graders.pack import Pack, get_pack
from graders.selfcheck import (
    declaration_problems,
    describe,
    expected_by_student,
    grade_samples,
    mismatches,
)

EXIT_OK, EXIT_FAILED = 0, 1


def say(text: str) -> None:
    """One line of the report, never wrapped or read as markup."""
    console.out.print(text, markup=False, soft_wrap=True)


@register
@click.command("selfcheck")
@click.argument("assignment")
@click.option("--mutants", is_flag=True,
              help="Also grade mutants of the reference solution and print the mutation score.")
@click.option("--samples/--no-samples", default=True, show_default=True,
              help="Grade the pack's sample submissions against their expected.json.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Grading processes to run at once (mutants).")
@click.option("--limit", type=click.IntRange(1), help="Grade a sample of N mutants only.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Which sample --limit takes (the same seed, the same mutants).")
@click.option("--record", is_flag=True,
              help="Keep the score in graders/packs/<id>/mutation.json (`grade list` shows it).")
@click.option("--target", type=click.FloatRange(0, 100), default=TARGET, show_default=True,
              help="Mutation score (%) below which the command fails.")
def command(assignment: str, mutants: bool, samples: bool, jobs: int, limit: int | None,
            seed: int, record: bool, target: float) -> None:
    """Check pack ASSIGNMENT: it has what every pack needs (samples, a do_nothing sample,
    handout citations) and every sample gets exactly its expected marks (exit 1 if not);
    with --mutants, its tests catch at least --target % of the mutants (exit 1 if not)."""
    pack = get_pack(assignment)
    failed = False
    if samples:
        failed = not check_samples(pack)
    if mutants:
        run, chosen = plan(pack, limit=limit, seed=seed)
        with console.progress_bar(len(chosen) + 1, f"{pack.id} mutants") as advance:
            grade_mutants(pack, run, chosen, jobs=jobs, progress=advance)
        print_run(pack, run)
        if record:
            path = write_record(pack, run.record())
            say(f"recorded in {path}")
        failed = failed or run.score is None or run.score < target
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


def check_samples(pack: Pack) -> bool:
    """What every pack needs, then the samples graded: print each sample whose marks differ
    from its expected.json."""
    lacking = declaration_problems(pack)
    for problem in lacking:
        say(f"{pack.id}: {problem}")
    expected = expected_by_student(pack)
    outcome = grade_samples(pack)
    graded = {result.student: result for result in outcome.results}
    wrong = 0
    for student in sorted(expected):
        result = graded.get(student)
        problems = mismatches(result, expected[student]) if result else ["not graded"]
        if problems:
            wrong += 1
            say(f"{pack.id}: sample {student} differs from its expected.json:")
            for problem in problems:
                say(f"  - {problem}")
            if result:
                say(f"  graded as: {describe(result)}")
    say(f"{pack.id}: {len(expected) - wrong} of {len(expected)} sample(s) get "
                      "their expected marks")
    return wrong == 0 and not lacking


def print_run(pack: Pack, run: MutationRun) -> None:
    """The counts, the score and every survivor, with what was changed where."""
    score = "not measured (no mutant graded)" if run.score is None else f"{run.score:.1f} %"
    sampled = (f"; a sample of {run.scored + len(run.errors)} of {run.generated} mutants, "
               f"seed {run.seed}" if run.limit is not None else f"; {run.generated} mutants")
    say(f"{pack.id}: mutation score {score}: caught {len(run.caught)}, survived "
        f"{len(run.survived)}, equivalent {len(run.equivalent)}, grader errors "
        f"{len(run.errors)}{sampled}")
    if run.survived:
        say("survived (no test lost a mark; add a test that fails on each):")
        for mutant in run.survived:
            _mutant_lines(mutant)
    if run.equivalent:
        say(f"equivalent (listed in graders/packs/{pack.id}/{EQUIVALENTS}; not scored): "
            f"{len(run.equivalent)}")
        for reason in sorted({why for _, why in run.equivalent}):
            count = sum(why == reason for _, why in run.equivalent)
            say(f"  {count} x {reason}")
    for mutant, why in run.errors:
        say(f"grader error (not scored): {mutant.where()} {mutant.id}: {why[:300]}")
    for stale in run.stale:
        say(f"note: {EQUIVALENTS} lists {stale}, which is no longer generated")


def _mutant_lines(mutant: Mutant) -> None:
    say(f"  {mutant.where()} [{mutant.category}: {mutant.description}] id {mutant.id}")
    say(f"    - {mutant.before}")
    say(f"    + {mutant.after}")
