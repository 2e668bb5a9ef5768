"""What student code could not import, read from a student's failing tests (parent side).

The course's environment is the standard library (whole: ``scripts/install.sh`` installs
python3-tk for tkinter), the pack's ``[environment]`` (built by ``grade setup`` as the tool
``env_<id>``, see :func:`graders.tools.environment_of`) and the student's own files. A test
whose error says ``No module named 'X'`` (``X`` a top-level module) failed only because ``X``
could not be imported; :func:`module_notes` reads those tests once per student:

- ``X`` is standard library, or the environment holds it: the sandbox is not the course's
  environment, a grader error (no mark may stand on it);
- ``X`` is a file handed in, or one the declaration or the starter kit names: the student's
  own failure (a missing file is reported as such), nothing to add;
- ``X`` is imported by a statement the ``forbidden-import`` rule reports: that rule speaks;
- otherwise: ONE note (``missing-module``, 0 points) naming ``X``, where it is imported, how
  many tests failed only because of it, and the key (``[environment] packages``) that would
  provide it. The student page lists those tests under the note (:func:`blamed_modules`),
  never once per test.

The wording is data: ``environment.toml`` beside this module.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from functools import cache
from pathlib import Path

from graders.checks import title_of
from graders.pack import Pack
from graders.results import SubmissionResult, TestOutcome, ViolationRecord
from graders.sandbox.isolation import sandbox_python
from graders.source_lines import python_lines
from graders.submissions import Submission
from graders.tools import Tool, environment_of

RULE = "missing-module"
NO_MODULE = re.compile(r"No module named '([A-Za-z_][A-Za-z0-9_]*)'")
SHOWN_TESTS = 4


@cache
def wording() -> dict[str, dict[str, str]]:
    """The notes' wording, from ``environment.toml``."""
    with Path(__file__).with_name("environment.toml").open("rb") as handle:
        return tomllib.load(handle)


def missing_module(test: TestOutcome) -> str | None:
    """The top-level module a failed test could not import, if that is how it failed."""
    if test.outcome != "failed":
        return None
    details = test.details or {}
    texts = [test.message, *(str(details.get(key) or "") for key in ("message", "stderr"))]
    for text in texts:
        found = NO_MODULE.search(text)
        if found:
            return found.group(1)
    return None


def blamed_modules(result: SubmissionResult) -> set[str]:
    """Modules the result's notes blame its failures on (the student page groups by them)."""
    return {v.kind for v in result.violations if v.rule == RULE}


def module_notes(
    pack: Pack, submission: Submission, tests: list[TestOutcome],
    violations: list[ViolationRecord],
) -> tuple[list[ViolationRecord], list[str]]:
    """The notes on modules the student's code could not import, and grader errors (a module
    the course's environment should have had)."""
    failed: dict[str, list[TestOutcome]] = {}
    for test in tests:
        module = missing_module(test)
        if module is not None:
            failed.setdefault(module, []).append(test)
    notes: list[ViolationRecord] = []
    errors: list[str] = []
    course = environment_of(pack)
    own = own_modules(pack, submission)
    for module, hit in failed.items():
        names = _test_names(hit)
        if module in sys.stdlib_module_names:
            errors.append(_say("stdlib-missing", module=module, python=sandbox_python(),
                               count=len(hit), tests=names))
        elif course is not None and module in environment_modules(course):
            errors.append(_say("environment-missing", module=module, pack=pack.id,
                               count=len(hit), tests=names))
        elif module not in own and not _forbidden(module, violations):
            notes.append(_note(pack, submission, module, hit))
    return notes, errors


def own_modules(pack: Pack, submission: Submission) -> set[str]:
    """Top-level module names that are the student's or the course's files: those in the
    workspace, and every file the declaration names or the starter kit holds (a required file
    that was not handed in is already reported missing; a driver may look for several)."""
    spec = pack.declaration.submission
    names = [*submission.files, *spec.files, *spec.optional, *spec.templates,
             *pack.declaration.locked.files, *([spec.entry_program] if spec.entry_program else [])]
    paths: list[Path] = [Path(name) for name in names]
    for folder in (submission.workspace, pack.templates_dir):
        if folder.is_dir():
            paths += [path.relative_to(folder) for path in folder.iterdir()]
    return {path.parts[0].removesuffix(".py") for path in paths if path.parts}


def environment_modules(tool: Tool) -> set[str]:
    """Top-level modules an environment provides: what its site-packages holds, and the
    names of its requirements (``pep8==1.7.1`` is ``pep8``) even before it is built."""
    names = {re.split(r"[=\[]", line)[0].strip().lower().replace("-", "_")
             for line in tool.spec.requirements}
    for site in tool.home.glob("lib/python3*/site-packages"):
        for entry in site.iterdir():
            if entry.suffix in (".dist-info", ".pth") or entry.name.startswith("__"):
                continue
            names.add(entry.name.split(".")[0] if entry.is_file() else entry.name)
    return names


def _note(
    pack: Pack, submission: Submission, module: str, hit: list[TestOutcome]
) -> ViolationRecord:
    file, line, statement = _import_of(submission, module)
    count, names = len(hit), _test_names(hit)
    return ViolationRecord(
        rule=RULE,
        title=title_of(RULE),
        file=file,
        line=line,
        source_line=statement or None,
        message=_say(RULE, module=module, file=file or "the code", count=count, tests=names),
        fix=_say(RULE, "fix", module=module, pack=pack.id, count=count, tests=names),
        kind=module,
    )


def _import_of(submission: Submission, module: str) -> tuple[str, int | None, str]:
    """Where ``module`` is first imported (file, line, the line's text), else ("", None, "")."""
    for name, text in submission.files.items():
        if not name.endswith(".py"):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        lines = [node.lineno for node in ast.walk(tree)
                 if isinstance(node, ast.Import | ast.ImportFrom) and module in _imported(node)]
        if lines:
            first = min(lines)
            return name, first, python_lines(text)[first - 1].strip()
    return "", None, ""


def _imported(node: ast.Import | ast.ImportFrom) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name.split(".")[0] for alias in node.names}
    if node.level == 0 and node.module:
        return {node.module.split(".")[0]}
    return set()


def _forbidden(module: str, violations: list[ViolationRecord]) -> bool:
    """The forbidden-import rule already reports a statement importing ``module``."""
    word = re.compile(rf"(?<![\w.]){re.escape(module)}(?!\w)")
    return any(v.rule == "forbidden-import" and word.search(v.source_line or v.message)
               for v in violations)


def _test_names(tests: list[TestOutcome]) -> str:
    names = list(dict.fromkeys(test.name for test in tests))
    shown = ", ".join(names[:SHOWN_TESTS])
    return shown + (f" and {len(names) - SHOWN_TESTS} more" if len(names) > SHOWN_TESTS else "")


def _say(key: str, part: str = "message", **values: object) -> str:
    return wording()[key][part].format(**values)
