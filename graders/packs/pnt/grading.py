"""The PNT test cases and the field checks the grader tests use (parent side).

Students' programs are run, never imported: ``python3 pnt.py <args>`` in the sandbox (the
student's program under the name the pack declares, whatever they called it), once per
case and submission (the seven field tests of a case share the run through a cache that lives
for one grading session). The
output is parsed with :mod:`graders.packs.pnt.output` and compared with the expected output
field by field; a failure shows the command, every field expected and got, and what the
program printed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from graders.errors import GraderError
from graders.packs import Pack, project_root
from graders.packs.pnt.cases import Case, parse_cases
from graders.packs.pnt.output import LABELS, NAMES, ParsedOutput, branching_matches, parse_output
from graders.sandbox import RunResult
from graders.submissions import Submission
from graders.testing import Mismatch

PROGRAM = ["python3", "pnt.py"]
TRACEBACK_FILE = re.compile(r'File "((?:[^"]*/)?)pnt\.py"')
# The handout's sample (section 2.3), graded in public beside the three official cases.
SAMPLE = Case("sample", parse_cases("TakeTokens 7 3 1 4 2 3")[0].position)
SAMPLE_OUTPUT = "output_sample.txt"
OFFICIAL_NAMES = ["input1", "input2", "input3"]
# Hidden inputs, in fixtures/<id>/inputs/: generated positions, hand-picked ones, then the
# cases chosen so that each handout rule is exposed at least three times (cover.py).
HIDDEN_FILES = ("hidden.txt", "targeted.txt", "rules.txt")


@dataclass(frozen=True)
class CaseRef:
    """A case as the tests are parametrized by it: its name and whether it is public."""

    name: str
    public: bool


def public_cases() -> list[CaseRef]:
    """The official cases and the handout's sample (their texts are read when grading)."""
    return [CaseRef(name, True) for name in [*OFFICIAL_NAMES, SAMPLE.name]]


def hidden_cases(pack_id: str = "pnt") -> list[Case]:
    """The hidden cases of ``fixtures/<id>/inputs/`` (none in a student's kit)."""
    folder = project_root() / "fixtures" / pack_id / "inputs"
    cases = []
    for name in HIDDEN_FILES:
        if (folder / name).is_file():
            cases += parse_cases((folder / name).read_text(encoding="utf-8"), strict=True)
    if len({case.name for case in cases}) != len(cases):
        raise GraderError(f"two hidden cases of {pack_id} have the same name")
    return cases


def all_cases() -> list[CaseRef]:
    """Every case the grader tests are parametrized with, public first."""
    return [*public_cases(), *(CaseRef(case.name, False) for case in hidden_cases())]


@dataclass(frozen=True)
class CaseRun:
    """A student's run of one case, with what was expected."""

    case: Case
    run: RunResult
    expected: ParsedOutput
    got: ParsedOutput
    problem: str | None
    # The program's name as handed in (main.py, Main.py, ...), for the command shown.
    program: str = PROGRAM[-1]

    @property
    def command(self) -> str:
        """The command the student can type to reproduce the run."""
        return " ".join([PROGRAM[0], self.program, *self.case.position.argv()])


def program_name(submission: Submission) -> str:
    """The file name the student's program was handed in under (pnt.py when so named)."""
    handed_in = submission.aliases.get(PROGRAM[-1], PROGRAM[-1])
    return PurePosixPath(handed_in).name


def load_case(
    ref: CaseRef, pack: Pack, public_file: Callable[[str], str], golden: Callable[[str], str]
) -> tuple[Case, str]:
    """`golden` is only called for hidden cases, so public tests never touch hidden files."""
    if ref.name == SAMPLE.name:
        return SAMPLE, public_file(SAMPLE_OUTPUT)
    if ref.name in OFFICIAL_NAMES:
        cases = {case.name: case for case in parse_cases(public_file("testcase.txt"))}
        return cases[ref.name], public_file(f"output{ref.name.removeprefix('input')}.txt")
    by_name = {case.name: case for case in hidden_cases(pack.id)}
    return by_name[ref.name], golden(f"{ref.name}.txt")


def run_case(
    runs: dict[tuple[str, str], CaseRun],
    key: str,
    case: Case,
    expected_text: str,
    pack: Pack,
    run_program: Callable[..., RunResult],
    program: str = PROGRAM[-1],
) -> CaseRun:
    """Run the student's program on `case` once per submission `key`, cached in `runs`.

    It always runs as ``python3 pnt.py``: where the student's program has another name, the
    engine wrote it into the workspace as pnt.py too (beside the original and its helper
    modules); `program` is that original name, shown in the report's commands.

    `runs` lives as long as one grading session. Tests are ordered by submission, so a new key
    means the previous student is done: their runs are dropped.
    """
    if (key, case.name) not in runs:
        expected = parse_output(expected_text)
        if not expected.format_ok:
            raise GraderError(
                f"expected output of {case.name} does not parse: "
                f"{expected.problem_lines()} (run `grade golden {pack.id}`)"
            )
        if any(done != key for done, _ in runs):
            runs.clear()
        run = run_program([*PROGRAM, *case.position.argv()])
        problem = run.problem(pack.limits)
        if run.output_truncated:
            problem = problem or f"printed more than {pack.limits.output_kb} KB"
        got = parse_output(run.stdout)
        runs[(key, case.name)] = CaseRun(case, run, expected, got, problem, program)
    return runs[(key, case.name)]


def answered(result: CaseRun, sample: CaseRun) -> CaseRun:
    """`result`, failed as a whole when it is not an answer to its own position.

    No vacuous credit: a program that printed exactly the six values it printed for the
    handout's sample, on a position whose right answer differs, printed constants (the
    handout's own example, most likely); no field of that case earns anything by chance.
    """
    if result.problem is not None or result.case.name == sample.case.name:
        return result
    got = result.got.values
    if all(value is None for value in got.values()) or got != sample.got.values:
        return result
    if result.expected.values == sample.expected.values:
        return result
    problem = (
        f"printed exactly what it printed for the handout's sample "
        f"({' '.join(sample.case.position.argv())}), whose answer differs: "
        "this is not an answer to this position"
    )
    return replace(result, problem=problem)


def field_ok(result: CaseRun, name: str) -> bool:
    """Whether the student's value of field `name` is right (ABF: either rounding of a tie)."""
    got, want = result.got.values[name], result.expected.values[name]
    if got is None:
        return False
    visited, evaluated = result.expected.values["visited"], result.expected.values["evaluated"]
    if name == "branching" and visited is not None and evaluated is not None:
        return branching_matches(float(got), int(visited), int(evaluated))
    return got == want


def check_fields(result: CaseRun, names: list[str]) -> None:
    """Fail unless the program ran cleanly and printed the right values for `names`."""
    wrong = [name for name in names if not field_ok(result, name)]
    if result.problem is None and not wrong:
        return
    parts = [
        f"{LABELS[n]}: expected {_shown(result.expected, n)}, got {_shown(result.got, n)}"
        for n in wrong
    ]
    raise Mismatch(_message(result, result.problem, parts), _details(result))


def check_format(result: CaseRun) -> None:
    """Fail unless the program ran cleanly and printed the six lines in the handout's format."""
    if result.problem is None and result.got.format_ok:
        return
    raise Mismatch(_message(result, result.problem, result.got.problem_lines()), _details(result))


def _message(result: CaseRun, problem: str | None, parts: list[str]) -> str:
    lines = [f"`{result.command}` {problem}"] if problem else []
    printed = any(value is not None for value in result.got.values.values())
    lines += parts if not problem or printed else []
    return f"case {result.case.name}: " + "\n".join(lines or ["wrong output"])


def _details(result: CaseRun) -> dict:
    rows = [
        {
            "field": LABELS[n],
            "expected": _shown(result.expected, n),
            "got": _shown(result.got, n),
            "ok": field_ok(result, n),
        }
        for n in NAMES
    ]
    return {
        "kind": "fields",
        "what": f"output of {result.command}",
        "rows": rows,
        "input": result.command,
        "stdout": result.run.stdout[-4000:] or "(nothing)",
        "stderr": _as_handed_in(result.run.stderr[-4000:], result.program),
    }


def _as_handed_in(stderr: str, program: str) -> str:
    """A traceback names the program as the student called it (it ran as pnt.py)."""
    if program == PROGRAM[-1]:
        return stderr
    return TRACEBACK_FILE.sub(lambda m: f'File "{m.group(1)}{program}"', stderr)


def _shown(parsed: ParsedOutput, name: str) -> str:
    """The field as printed, or "(missing)"."""
    return parsed.raw.get(name, "(missing)")
