"""Run a pack's rule checks on a submission's sources (parent side, never executing them)."""

from __future__ import annotations

import ast
import io
import tokenize
import tomllib
import traceback
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from graders.pack import Pack
from graders.results import ViolationRecord
from graders.rules import get_rule
from graders.rules.base import Rule, RuleContext, Violation, messages_for
from graders.rules.syntax_error import grades_on_older_python
from graders.source_lines import python_lines
from graders.specs import RuleSpec
from graders.starter import closest_starter, is_starter_line
from graders.submissions import Submission

PROBLEM_TITLES = Path(__file__).with_name("problems.toml")


@cache
def _problem_words() -> dict[str, Any]:
    with PROBLEM_TITLES.open("rb") as handle:
        return tomllib.load(handle)


def problem_titles() -> dict[str, str]:
    """Each hand-in problem's title (``problems.toml``)."""
    return {kind: text for kind, text in _problem_words().items() if isinstance(text, str)}


def problem_fix(kind: str) -> str:
    """What to do about a hand-in problem of ``kind`` ("" where there is nothing to say)."""
    return str(_problem_words().get("fix", {}).get(kind, ""))


def title_of(rule: str) -> str:
    titles = problem_titles()
    if rule in titles:
        return titles[rule]
    try:
        return str(messages_for(rule).get("title", rule))
    except KeyError:
        return rule


def parse(source: str) -> ast.Module | None:
    """The tree of ``source``, or None when Python cannot read it (including a source nested
    too deeply for the parser: that is reported like a syntax error)."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def run_rules(pack: Pack, submission: Submission) -> list[ViolationRecord]:
    """All violations: collection problems, syntax errors, then the declared rules.

    A violation on a line of starter text (``graders.starter``) is dropped: starter code is
    not the student's. Rules that compare with a template judge the difference from the
    starter version closest to the student's file, and keep theirs, except on a line most of
    the class shares (:meth:`Pack.shared_lines`). A rule that recurses too deeply on a
    pathological source reports the file as too deep to read; any other exception is the
    grader's and is raised.
    """
    records = [_record(problem, _penalty(pack, problem.rule)) for problem in submission.problems]
    trees = {}
    for name, source in submission.files.items():
        if not name.endswith(".py"):
            continue
        trees[name] = parse(source)
        if trees[name] is None or grades_on_older_python():  # a pre-check on a newer Python
            context = RuleContext(file=name, source=source, tree=None)
            records += [_record(v, 0.0) for v in _checked(get_rule("syntax-error")(), context)]
    locked = {name: pack.template_text(name) for name in pack.declaration.locked.files}
    # A document handed in for a source file (RTF, a web page): its `not-source` problem is the
    # one charge; its text is no code to judge (pep8 would list its markup line by line).
    documents = {problem.file for problem in submission.problems if problem.rule == "not-source"}
    for spec in pack.declaration.rules:
        rule = get_rule(spec.name)(pack.declaration.rule_options(spec))
        for name in _files_for(spec, rule, submission):
            tree = trees.get(name)
            if rule.needs_tree and tree is None or name in documents:
                continue
            context = RuleContext(
                file=name,
                source=submission.files[name],
                tree=tree,
                template=closest_starter(pack, name, submission.files[name]),
                locked=locked,
                submitted=submission.files,
                shared=pack.shared_lines(name),
            )
            found = _checked(rule, context)
            if not rule.compares_template:
                found = [v for v in found if not _on_starter_text(pack, context, v)]
            elif context.shared:
                found = [v for v in found if (context.line_text(v.line) or "").strip()
                         not in context.shared]
            records += [_record(v, spec.deduction) for v in found]
    return records


def unchecked(pack: Pack, submission: Submission) -> dict[str, list[str]]:
    """Rule name -> the files it could not check because Python cannot read them (their
    syntax error is reported instead): a pre-check says so rather than PASS."""
    unread = {name for name, source in submission.files.items()
              if name.endswith(".py") and parse(source) is None}
    found: dict[str, dict[str, None]] = {}  # ordered, once each: a rule may be declared twice
    for spec in pack.declaration.rules:
        rule = get_rule(spec.name)(pack.declaration.rule_options(spec))
        if rule.needs_tree:
            found.setdefault(spec.name, {}).update(
                dict.fromkeys(n for n in _files_for(spec, rule, submission) if n in unread))
    return {name: list(files) for name, files in found.items() if files}


def _files_for(spec: RuleSpec, rule: Rule, submission: Submission) -> list[str]:
    """The declared files, plus the student's helper modules where the rule applies to them."""
    if not spec.files:
        return list(submission.files)
    names = [name for name in spec.files if name in submission.files]
    with_helpers = rule.checks_helpers if spec.helpers is None else spec.helpers
    if with_helpers and not rule.compares_template:
        names += [name for name in submission.helpers if name not in names]
    return names


def _checked(rule: Rule, context: RuleContext) -> list[Violation]:
    try:
        return list(rule.check(context))
    except (RecursionError, MemoryError):
        return [too_deep(context)]


def too_deep(context: RuleContext) -> Violation:
    """A source nested too deeply to read (one huge expression, thousands of brackets)."""
    line = deepest_line(context.source)
    text = context.line_text(line)
    return Violation(
        rule="syntax-error",
        file=context.file,
        message=f"Line {line}: this code is nested too deeply (or one expression is too long) "
        "for Python to read. Split it into several shorter statements.",
        line=line,
        source_line=text[:200] if text else None,
        fix=str(messages_for("syntax-error").get("fix", "")),
    )


def deepest_line(source: str) -> int:
    """The line with the most operators and open brackets (read with ``tokenize``, which
    never recurses), where a too-deep source most likely goes wrong."""
    weight: dict[int, int] = {}
    depth = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.OP:
                depth += token.string in "([{"
                depth -= token.string in ")]}"
                line = token.start[0]
                weight[line] = max(weight.get(line, 0), 0) + 1 + max(depth, 0)
    except (tokenize.TokenError, SyntaxError, RecursionError, MemoryError):
        pass
    return max(weight, key=lambda line: weight[line]) if weight else 1


def _on_starter_text(pack: Pack, context: RuleContext, violation: Violation) -> bool:
    return is_starter_line(pack, context.file, context.source, violation.line)


def _penalty(pack: Pack, kind: str) -> float:
    penalties = pack.declaration.penalties
    return {
        "file-name": penalties.wrong_file_name,
        "source-encoding": penalties.not_utf8,
        "extra-files": penalties.extra_files,
    }.get(kind, 0.0)


def _record(violation: Violation, deduction: float) -> ViolationRecord:
    return ViolationRecord(
        rule=violation.rule,
        title=title_of(violation.rule),
        file=violation.file,
        message=violation.message,
        line=violation.line,
        source_line=violation.source_line,
        fix=violation.fix or problem_fix(violation.rule),
        deduction=deduction,
        kind=violation.kind,
    )


def run_rules_skipping_unparsable(
    pack: Pack, submission: Submission
) -> tuple[list[ViolationRecord], list[str]]:
    """The rule checks when ``run_rules`` itself ran out of stack or memory: a file too long or
    too deeply nested for Python's parser is the student's failure, reported like a syntax
    error, and the other files are still checked; (violations, grader errors)."""
    records, kept = [], dict(submission.files)
    for name, source in submission.files.items():
        if name.endswith(".py") and _beyond_parser(source):
            kept.pop(name)
            lines = python_lines(source) or [""]
            longest = max(range(len(lines)), key=lambda n: len(lines[n]))
            records.append(ViolationRecord(
                rule="syntax-error", title=title_of("syntax-error"), file=name, line=longest + 1,
                message=f"`{name}` could not be parsed: an expression is too long or nested "
                "too deeply for Python (RecursionError/MemoryError in the parser).",
                fix="Split the expression into several statements.",
            ))
    try:
        records += run_rules(pack, replace(submission, files=kept))
    except Exception:  # noqa: BLE001
        return records, [f"the rule checks failed (grader error):\n{traceback.format_exc()}"]
    return records, []


def _beyond_parser(source: str) -> bool:
    try:
        ast.parse(source)
    except (RecursionError, MemoryError):
        return True
    except (SyntaxError, ValueError):
        return False
    return False
