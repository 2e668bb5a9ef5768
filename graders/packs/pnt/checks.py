"""PNT expectations (parent side): the cases, the six output lines, and the field checks.

Students' programs are run, never imported: ``python3 pnt.py <#tokens> <#taken> <taken...>
<depth>`` in the sandbox, once per case and student; the output's six fields are compared
with the expected output's one by one, and a failure shows the command, every field expected
and got, and what the program printed.

The output is read by :mod:`graders.labelled` (tolerated: trailing spaces, no final newline;
a float with two decimals is a format problem of its field only, its value still read).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import PurePosixPath

from graders.errors import GraderError
from graders.labelled import Field, Labelled, parse_labelled
from graders.pack import Pack
from graders.sandbox import RunResult
from graders.submissions import Submission
from graders.testing import Mismatch

PROGRAM = ["python3", "pnt.py"]
TRACEBACK_FILE = re.compile(r'File "((?:[^"]*/)?)pnt\.py"')
OFFICIAL_NAMES = ["input1", "input2", "input3"]
SAMPLE_OUTPUT = "output_sample.txt"
# Hidden case files of fixtures/<id>/inputs/: (case name prefix, number of cases). Generated
# positions, hand-picked ones, then the cases that expose each handout rule three times.
HIDDEN_FILES = {"hidden.txt": ("hidden", 10), "targeted.txt": ("extra", 5),
                "rules.txt": ("rule", 8)}
HIDDEN_NAMES = [f"{p}{i}" for p, count in HIDDEN_FILES.values() for i in range(1, count + 1)]
# How the handout writes the program's name in front of a case's arguments.
PROGRAM_NAMES = (("TakeTokens",), ("PNT", "Player"), ("PNTPlayer",))
# "All doubles/floats should be printed with 1 decimal place."
FIELDS = (
    Field("move", "Move"),
    Field("value", "Value", float),
    Field("visited", "Number of Nodes Visited"),
    Field("evaluated", "Number of Nodes Evaluated"),
    Field("max_depth", "Max Depth Reached"),
    Field("branching", "Avg Effective Branching Factor", float),
)
NAMES = tuple(f.name for f in FIELDS)
LABELS = {f.name: f.label for f in FIELDS}


@dataclass(frozen=True)
class Position:
    """One PNT test case: n tokens, the taken tokens in order, and the search depth."""

    n: int
    taken: tuple[int, ...]
    depth: int

    def argv(self) -> list[str]:
        """The program's command-line words: n, #taken, taken tokens..., depth."""
        return [str(w) for w in (self.n, len(self.taken), *self.taken, self.depth)]


# The handout's sample (section 2.3), graded in public beside the three official cases.
SAMPLE_NAME, SAMPLE = "sample", Position(7, (1, 4, 2), 3)


def parse_arguments(words: list[str]) -> Position:
    """The Position described by a case's words, with or without the program's name first."""
    for name in PROGRAM_NAMES:
        if tuple(words[: len(name)]) == name:
            words = words[len(name) :]
            break
    if not words or not all(re.fullmatch(r"-?[0-9]+", w) for w in words):
        raise ValueError(f"expected whole numbers, got {' '.join(words)!r}")
    numbers = [int(w) for w in words]
    if len(numbers) < 3 or len(numbers) != numbers[1] + 3:
        raise ValueError(
            f"expected <#tokens> <#taken> <taken tokens...> <depth>, got {len(numbers)} numbers"
        )
    return Position(numbers[0], tuple(numbers[2:-1]), numbers[-1])


def parse_cases(text: str) -> dict[str, Position]:
    """The cases of a test case file by name, in file order; ValueError names a bad line.

    As in the official testcase.txt, a line ending in ``:`` names the case on the next (one
    line works too); unnamed cases are case1, case2, ...; ``#`` comments are skipped. Moves
    are not checked: official case 3 (``10 3 4 2 6 4``) opens with token 4, which the
    first-move rule forbids, and programs must still answer it (golden.py checks hidden ones).
    """
    cases: dict[str, Position] = {}
    label: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, colon, rest = line.partition(":")
        if colon:
            if label is not None:
                raise ValueError(f"line {number}: case {label!r} has no arguments")
            label, line = head.strip(), rest.strip()
            if not line:
                continue
        name = label or f"case{len(cases) + 1}"
        if name in cases:
            raise ValueError(f"line {number}: a second case named {name!r}")
        try:
            cases[name] = parse_arguments(line.split())
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
        label = None
    if label is not None:
        raise ValueError(f"end of file: case {label!r} has no arguments")
    return cases


def format_cases(cases: dict[str, Position]) -> str:
    """A test case file in the layout of the official testcase.txt."""
    return "".join(f"{n}:\n    TakeTokens {' '.join(p.argv())}\n" for n, p in cases.items())


def hidden_cases(pack: Pack) -> dict[str, Position]:
    """The hidden cases of ``fixtures/<id>/inputs/`` (none in a student's kit)."""
    cases: dict[str, Position] = {}
    for name in HIDDEN_FILES:
        path = pack.fixtures_dir / "inputs" / name
        if path.is_file():
            cases.update(parse_cases(path.read_text(encoding="utf-8")))
    return cases


def load_case(
    name: str, pack: Pack, public_file: Callable[[str], str], golden: Callable[[str], str]
) -> tuple[Position, str]:
    """Case `name` and its expected output. Only a hidden case reads hidden files."""
    if name == SAMPLE_NAME:
        return SAMPLE, public_file(SAMPLE_OUTPUT)
    if name in OFFICIAL_NAMES:
        expected = public_file(f"output{name.removeprefix('input')}.txt")
        return parse_cases(public_file("testcase.txt"))[name], expected
    return hidden_cases(pack)[name], golden(f"{name}.txt")


def parse_output(text: str) -> Labelled:
    """The six fields of a PNT program's output; never raises on any text."""
    return parse_labelled(text, FIELDS)


def branching_matches(printed: float, visited: int, evaluated: int) -> bool:
    """True when `printed` is (visited - 1) / (visited - evaluated) to one decimal place.

    Both ways of rounding a tie are accepted (2.25 -> 2.2 as Python prints it, or 2.3 as
    Java's String.format does), so the check is: at most 0.05 away from the exact ratio.
    """
    expanded = visited - evaluated
    if expanded <= 0:
        return printed == 0.0
    exact = Fraction(visited - 1, expanded)
    return abs(Fraction(repr(printed)) - exact) <= Fraction(1, 20)


@dataclass(frozen=True)
class CaseRun:
    """A student's run of one case, with what was expected."""

    name: str
    position: Position
    run: RunResult
    expected: Labelled
    got: Labelled
    problem: str | None
    # The program's name as handed in (main.py, Main.py, ...), for the command shown.
    program: str = PROGRAM[-1]

    @property
    def command(self) -> str:
        """The command the student can type to reproduce the run."""
        return " ".join([PROGRAM[0], self.program, *self.position.argv()])


def program_name(submission: Submission) -> str:
    """The file name the student's program was handed in under (pnt.py when so named)."""
    return PurePosixPath(submission.aliases.get(PROGRAM[-1], PROGRAM[-1])).name


def run_case(
    name: str, position: Position, expected_text: str, pack: Pack,
    run_program: Callable[..., RunResult], program: str = PROGRAM[-1],
) -> CaseRun:
    """Run the student's program on one case.

    It always runs as ``python3 pnt.py``: where the student's program has another name, the
    engine wrote it into the workspace as pnt.py too (beside the original and its helper
    modules); `program` is that original name, shown in the report's commands.
    """
    expected = parse_output(expected_text)
    if not expected.format_ok:
        raise GraderError(f"expected output of {name} does not parse: "
                          f"{expected.problem_lines()} (run `grade golden {pack.id}`)")
    run = run_program([*PROGRAM, *position.argv()])
    problem = run.problem(pack.limits)
    if run.output_truncated:
        problem = problem or f"printed more than {pack.limits.output_kb} KB"
    return CaseRun(name, position, run, expected, parse_output(run.stdout), problem, program)


def answered(result: CaseRun, sample: CaseRun) -> CaseRun:
    """`result`, failed as a whole when it is not an answer to its own position.

    No vacuous credit: a program that printed exactly the six values it printed for the
    handout's sample, on a position whose right answer differs, printed constants (the
    handout's own example, most likely); no field of that case earns anything by chance.
    """
    got = result.got.values
    if result.problem is not None or result.name == sample.name or got != sample.got.values:
        return result
    if all(v is None for v in got.values()) or result.expected.values == sample.expected.values:
        return result
    return replace(result, problem=(
        f"printed exactly what it printed for the handout's sample "
        f"({' '.join(sample.position.argv())}), whose answer differs: "
        "this is not an answer to this position"))


def field_ok(result: CaseRun, name: str) -> bool:
    """Whether the student's value of field `name` is right (ABF: either rounding of a tie,
    from the right counts or from the student's own: a counting slip is the counts' test's
    to charge, not the branching factor's a second time)."""
    got, want = result.got.values[name], result.expected.values
    if got is not None and name == "branching":
        return branching_matches(float(got), int(want["visited"] or 0),
                                 int(want["evaluated"] or 0)) or _from_own_counts(result)
    return got is not None and got == want[name]


def _from_own_counts(result: CaseRun) -> bool:
    """Whether the printed branching factor is the handout's formula on the counts the
    program printed, where those counts are a search's (the root expanded, a node evaluated)
    and the search found the right move or value: counts made up, or no search at all, get
    nothing from them."""
    got, want = result.got.values, result.expected.values
    visited, evaluated, printed = got["visited"], got["evaluated"], got["branching"]
    if not isinstance(visited, int) or not isinstance(evaluated, int) or printed is None:
        return False
    searched = visited > evaluated >= 1 and (got["move"] == want["move"]
                                            or got["value"] == want["value"])
    return searched and branching_matches(float(printed), visited, evaluated)


def check_field(result: CaseRun, name: str, why: str = "") -> None:
    """Fail unless the program ran cleanly and printed the right value of field `name`
    (``why``: what the wrong value most likely means, added to the message)."""
    if result.problem is None and field_ok(result, name):
        return
    wrong = [] if field_ok(result, name) else [
        f"{LABELS[name]}: expected {_shown(result.expected, name)}, got "
        f"{_shown(result.got, name)}{why}"]
    raise Mismatch(_message(result, wrong), _details(result))


def check_format(result: CaseRun) -> None:
    """Fail unless the program ran cleanly and printed the six lines in the handout's format."""
    if result.problem is None and result.got.format_ok:
        return
    # What kind of slip the output shows (an extra line after it, a label worded
    # differently, ...): the format criterion charges a declared kind once (`causes`).
    causes = result.got.causes if result.problem is None else {}
    raise Mismatch(_message(result, result.got.problem_lines()), _details(result), causes)


def _message(result: CaseRun, parts: list[str]) -> str:
    lines = [f"`{result.command}` {result.problem}"] if result.problem else []
    printed = any(value is not None for value in result.got.values.values())
    lines += parts if not result.problem or printed else []
    return f"case {result.name}: " + "\n".join(lines or ["wrong output"])


def _details(result: CaseRun) -> dict:
    rows = [{"field": LABELS[n], "expected": _shown(result.expected, n),
             "got": _shown(result.got, n), "ok": field_ok(result, n)} for n in NAMES]
    stderr = result.run.stderr[-4000:]
    if result.program != PROGRAM[-1]:  # a traceback names the program as the student did
        stderr = TRACEBACK_FILE.sub(lambda m: f'File "{m.group(1)}{result.program}"', stderr)
    return {"kind": "fields", "what": f"output of {result.command}", "rows": rows,
            "input": result.command, "stdout": result.run.stdout[-4000:] or "(nothing)",
            "stderr": stderr}


def _shown(parsed: Labelled, name: str) -> str:
    """The field as printed, or "(missing)"."""
    return parsed.raw.get(name, "(missing)")
