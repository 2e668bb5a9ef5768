"""`grade selfcheck ID [--mutants]`: the pack's samples get their expected marks; with
``--mutants``, how many planted faults in the reference its tests catch (docs/mutation-testing.md).
"""

from __future__ import annotations

import sys

import click

from graders import console
from graders.bundled_tests import bundled_test_problems
from graders.commands import register
from graders.mutation import TARGET, MutationRun, grade_mutants, plan
from graders.mutation.equivalents import EQUIVALENTS, coverage, write_record
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
              help="Keep the score in graders/packs/<id>/mutation.json (`grade list` shows it; "
                   "a sample only with --as-sample).")
@click.option("--as-sample", is_flag=True,
              help="With --record and --limit: store the figure as the sample it is, with its "
                   "95 % interval.")
@click.option("--target", type=click.FloatRange(0, 100), default=TARGET, show_default=True,
              help="Mutation score (%) below which the command fails.")
def command(assignment: str, mutants: bool, samples: bool, jobs: int, limit: int | None,
            seed: int, record: bool, as_sample: bool, target: float) -> None:
    """Check pack ASSIGNMENT: it has what every pack needs (samples, a do_nothing sample,
    handout citations) and every sample gets exactly its expected marks (exit 1 if not);
    with --mutants, its tests catch at least --target % of the mutants (exit 1 if not)."""
    pack = get_pack(assignment)
    failed = False
    if samples:
        failed = not check_samples(pack)
    if mutants:
        run, chosen = plan(pack, limit=limit, seed=seed)
        total = len(chosen) + len(run.declared) + 1
        with console.progress_bar(total, f"{pack.id} mutants") as advance:
            grade_mutants(pack, run, chosen, jobs=jobs, progress=advance)
        print_run(pack, run)
        if record:
            _record(pack, run, as_sample)
        failed = failed or run.score is None or run.score < target or bool(run.refused)
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


def _record(pack: Pack, run: MutationRun, as_sample: bool) -> None:
    """Keep the run, unless it is a sample nobody asked to store as one."""
    if run.sampled and not as_sample:
        say(f"not recorded: a sample of {run.scored} of {run.scorable} scorable mutants is not "
            "a total; add --as-sample to record it as the sample it is")
        return
    path = write_record(pack, run.record())
    say(f"recorded in {path}")


def check_samples(pack: Pack) -> bool:
    """What every pack needs, then the samples graded: print each sample whose marks differ
    from its expected.json."""
    lacking = declaration_problems(pack) + bundled_test_problems(pack)
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
    """What the score covers, the score, every survivor and every claim refused."""
    score = "not measured (no mutant graded)" if run.score is None else f"{run.score:.1f} %"
    say(f"{pack.id}: mutation score {score}: {coverage(run.record())}; grader errors "
        f"{len(run.errors)}; {run.generated} mutants made" + _seed(run))
    if run.survived:
        say("survived (no test lost a mark; add a test that fails on each):")
        for mutant in run.survived:
            _mutant_lines(mutant)
    for label, kept in (("equivalent", run.equivalent), ("handout-silent", run.silent)):
        if kept:
            say(f"{label} (declared in graders/packs/{pack.id}/{EQUIVALENTS}, checked; "
                f"not scored): {len(kept)}")
            for reason in sorted({why for _, why in kept}):
                say(f"  {sum(why == reason for _, why in kept)} x {reason}")
    if run.refused:
        say(f"refused (declared in {EQUIVALENTS}, but the claim does not hold; fix or remove "
            f"each entry): {len(run.refused)}")
        for mutant, why in run.refused:
            _mutant_lines(mutant)
            say(f"    refused: {why}")
    for mutant, why in run.errors:
        say(f"grader error (not scored): {mutant.where()} {mutant.id}: {why[:300]}")
    for stale in run.stale:
        say(f"note: {EQUIVALENTS} lists {stale}, which is no longer generated")


def _seed(run: MutationRun) -> str:
    return f", seed {run.seed}" if run.sampled else ""


def _mutant_lines(mutant: Mutant) -> None:
    say(f"  {mutant.where()} [{mutant.category}: {mutant.description}] id {mutant.id}")
    say(f"    - {mutant.before}")
    say(f"    + {mutant.after}")
