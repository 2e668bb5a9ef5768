"""Self-checks that keep packs honest: sample submissions get exactly their expected marks.

Each ``fixtures/<id>/submissions/<name>/expected.json`` (``<name>.expected.json`` beside a
``<name>.zip``) declares what grading must produce::

    {
      "why": "eval returns +1000 where -1000 is due (sign error)",
      "total": 55,                         # exact total (to 0.01)
      "criteria": {"eval": 0},             # optional: earned points of some criteria
      "violations": ["forbidden-import"],  # exact set of rule/problem names reported
      "failing": ["test_eval_*"],          # optional: fnmatch patterns of tests that must fail
      "explains": ["sign"],                # optional: phrases (any case) the messages of its
                                           #   failed tests and rule violations must hold
      "status": "graded"                   # optional, default "graded"
    }

Sample submission times come from ``fixtures/<id>/times.csv`` (``student,submitted_at``, as
``grade --times`` reads it), never from a file in the sample.

A hostile submission (``fixtures/attacks/``) declares the honest mark it must NOT exceed with
``"at_most": true``: then ``total`` and every listed criterion are upper bounds, and
``violations`` is checked only when it is given.
"""

from __future__ import annotations

import ast
import json
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from graders import citations
from graders.batch import BatchRequest, grade_batch
from graders.handin import archive_stem
from graders.outcomes import BatchOutcome
from graders.pack import Pack
from graders.results import SubmissionResult
from graders.submissions import find_submissions, student_id
from graders.times import InstructorTimes, load_times

EXPECTED = "expected.json"


def expected_path(source: Path) -> Path:
    """``<folder>/expected.json``, or ``<name>.expected.json`` beside an archive
    (``alice.zip``, ``alice.tar.gz``: ``alice.expected.json``)."""
    stem = archive_stem(source.name)
    return source / EXPECTED if stem is None else source.with_name(f"{stem}.{EXPECTED}")


def sample_sources(pack: Pack) -> list[Path]:
    """The pack's sample submissions that declare their expected result."""
    folder = pack.fixtures_dir / "submissions"
    if not folder.is_dir():
        return []
    return [path for path in find_submissions(folder) if expected_path(path).is_file()]


DO_NOTHING = "do_nothing"


def declaration_problems(pack: Pack) -> list[str]:
    """What a pack lacks before anything is graded: enough samples, a ``do_nothing`` sample
    (no vacuous credit), a handout citation on every criterion and rule (and on the
    ``[environment]``) with no PDF damage in it (:func:`graders.citations.damage`), and the
    one layout
    (:func:`layout_problems`)."""
    names = {student_id(path) for path in sample_sources(pack)}
    wanted = pack.declaration.selfcheck.samples
    problems = [f"{len(names)} samples with an expected.json; a pack needs {wanted}"
                ] if len(names) < wanted else []
    if DO_NOTHING not in names:
        problems.append(f"no `{DO_NOTHING}` sample (the template returning constants or its "
                        "input unchanged), which must earn at most 10 %")
    declaration = pack.declaration
    uncited = [f"criterion {c.id}" for c in declaration.criteria if not c.handout.strip()]
    uncited += [f"rule {r.name}" for r in declaration.rules if not r.handout.strip()]
    environment = declaration.environment
    if environment.requirements and not environment.handout.strip():
        uncited.append("[environment]")
    problems += [f"{what}: no `handout = \"<the sentence it enforces>\"`" for what in uncited]
    return problems + citations.pack_damage(pack) + layout_problems(pack)


# The one pack layout (docs/pack-authoring.md): any other module is folded into these.
LAYOUT = ("__init__.py", "driver.py", "driver_*.py", "checks.py", "checks_*.py", "oracle.py",
          "generate.py", "golden.py", "test_*.py")
# Called at import time, these read files or make cases: a test module only defines.
IMPORT_TIME_IO = {"open", "Path", "read_text", "glob", "iterdir"}


def layout_problems(pack: Pack) -> list[str]:
    """Modules outside the one layout, and grader test modules that call the pack's own
    modules (or read files) while being imported rather than inside a test."""
    problems = [f"{path.name}: not a module of the pack layout ({', '.join(LAYOUT)})"
                for path in sorted(pack.dir.glob("*.py"))
                if not any(fnmatch(path.name, pattern) for pattern in LAYOUT)]
    for path in pack.test_files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = _pack_names(tree, pack.id) | IMPORT_TIME_IO
        problems += [f"{path.name}:{line}: `{name}(...)` runs at import; call it in the test"
                     for line, name in _import_time_calls(tree, own)]
    return problems


def _pack_names(tree: ast.Module, pack_id: str) -> set[str]:
    """Names a test module binds to the pack's own modules or their functions."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (
                node.level or (node.module or "").startswith(f"graders.packs.{pack_id}")):
            names |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names
                      if alias.name.startswith(f"graders.packs.{pack_id}")}
    return names


def _import_time_calls(tree: ast.Module, names: set[str]) -> list[tuple[int, str]]:
    """(line, name) of each call to one of ``names`` evaluated when the module is imported:
    in module-level statements, decorators and default values, never in function bodies."""
    found: list[tuple[int, str]] = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            pending += [*node.decorator_list, *node.args.defaults,
                        *(default for default in node.args.kw_defaults if default)]
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Call):
            root = node.func
            while isinstance(root, ast.Attribute):
                if root.attr in names:
                    found.append((node.lineno, root.attr))
                root = root.value
            if isinstance(root, ast.Name) and root.id in names:
                found.append((node.lineno, ast.unparse(node.func)))
        pending += [child for child in ast.iter_child_nodes(node) if child is not None]
    return sorted(set(found))


TIMES = "times.csv"


def sample_times(pack: Pack) -> InstructorTimes | None:
    """The samples' submission times (``fixtures/<id>/times.csv``), if the pack has them."""
    path = pack.fixtures_dir / TIMES
    return load_times(path) if path.is_file() else None


def grade_samples(pack: Pack, out_dir: Path | None = None) -> BatchOutcome:
    """Grade all of a pack's sample submissions in one batch, with their times."""
    return grade_batch(BatchRequest(pack=pack, sources=sample_sources(pack), out_dir=out_dir,
                                    fresh=True, times=sample_times(pack)))


def expected_by_student(pack: Pack) -> dict[str, dict[str, Any]]:
    """Each sample's expected.json, keyed by the student id grading gives it."""
    return {
        student_id(path): json.loads(
            expected_path(path).read_text(encoding="utf-8")
        )
        for path in sample_sources(pack)
    }


def mismatches(result: SubmissionResult, expected: dict[str, Any]) -> list[str]:
    """How ``result`` differs from ``expected`` (empty when it matches)."""
    problems = []
    if expected.get("status", "graded") != result.status:
        problems.append(
            f"status {result.status!r} != {expected.get('status', 'graded')!r}: "
            f"{result.grader_errors}"
        )
    at_most = bool(expected.get("at_most"))
    if _off(result.total, float(expected["total"]), at_most):
        relation = "exceeds the most allowed," if at_most else "!= expected"
        problems.append(f"total {result.total:g} {relation} {expected['total']}")
    earned = {mark.id: mark.earned for mark in result.criteria}
    for criterion, points in expected.get("criteria", {}).items():
        if _off(earned.get(criterion, -1), float(points), at_most):
            problems.append(f"criterion {criterion}: {earned.get(criterion)} != {points}")
    rules = sorted({violation.rule for violation in result.violations})
    if (not at_most or "violations" in expected) and rules != sorted(
        expected.get("violations", [])
    ):
        problems.append(f"violations {rules} != expected {sorted(expected.get('violations', []))}")
    failed = [test.name for test in result.tests if test.outcome == "failed"]
    for pattern in expected.get("failing", []):
        if not any(fnmatch(name, pattern) for name in failed):
            problems.append(f"no failing test matches {pattern!r} (failed: {sorted(set(failed))})")
    problems += [f"no message says {phrase!r}"
                 for phrase in unexplained(result, expected.get("explains", []))]
    return problems


def unexplained(result: SubmissionResult, phrases: list[str]) -> list[str]:
    """The ``phrases`` that no message of the result's failed tests and rule violations holds
    (case aside): what its report never says."""
    words = " ".join([test.message for test in result.tests if test.outcome == "failed"]
                     + [violation.message for violation in result.violations]).lower()
    return [phrase for phrase in phrases if phrase.lower() not in words]


def _off(got: float, want: float, at_most: bool) -> bool:
    return got > want + 0.01 if at_most else abs(got - want) > 0.01


def describe(result: SubmissionResult) -> str:
    """A one-screen account of a result, to paste into an expected.json while writing one."""
    earned = {mark.id: mark.earned for mark in result.criteria}
    failed = sorted({t.name for t in result.tests if t.outcome == "failed"})
    return json.dumps(
        {
            "total": result.total,
            "criteria": earned,
            "violations": sorted({v.rule for v in result.violations}),
            "failing": failed,
            "status": result.status,
        },
        indent=1,
    )
