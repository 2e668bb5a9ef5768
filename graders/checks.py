"""Run a pack's rule checks on a submission's sources (parent side, never executing them)."""

from __future__ import annotations

import ast
import tomllib
from functools import cache
from pathlib import Path

from graders.packs import Pack
from graders.results import ViolationRecord
from graders.rules import get_rule
from graders.rules.base import RuleContext, Violation, messages_for
from graders.submissions import Submission

PROBLEM_TITLES = Path(__file__).with_name("problems.toml")


@cache
def problem_titles() -> dict[str, str]:
    with PROBLEM_TITLES.open("rb") as handle:
        return tomllib.load(handle)


def title_of(rule: str) -> str:
    titles = problem_titles()
    if rule in titles:
        return titles[rule]
    try:
        return str(messages_for(rule).get("title", rule))
    except KeyError:
        return rule


def parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def run_rules(pack: Pack, submission: Submission) -> list[ViolationRecord]:
    """All violations: collection problems, syntax errors, then the declared rules."""
    records = [_record(problem, _penalty(pack, problem.rule)) for problem in submission.problems]
    trees = {}
    for name, source in submission.files.items():
        if not name.endswith(".py"):
            continue
        trees[name] = parse(source)
        if trees[name] is None:
            context = RuleContext(file=name, source=source, tree=None)
            records += [_record(v, 0.0) for v in get_rule("syntax-error")().check(context)]
    locked = {name: pack.template_text(name) for name in pack.declaration.locked.files}
    templates = pack.declaration.submission.templates
    for spec in pack.declaration.rules:
        rule = get_rule(spec.name)(spec.options)
        for name in spec.files or list(submission.files):
            if name not in submission.files:
                continue
            tree = trees.get(name)
            if rule.needs_tree and tree is None:
                continue
            context = RuleContext(
                file=name,
                source=submission.files[name],
                tree=tree,
                template=pack.template_text(templates[name]) if name in templates else None,
                locked=locked,
                submitted=submission.files,
            )
            records += [_record(v, spec.deduction) for v in rule.check(context)]
    return records


def _penalty(pack: Pack, kind: str) -> float:
    penalties = pack.declaration.penalties
    return {"file-name": penalties.wrong_file_name, "source-encoding": penalties.not_utf8}.get(
        kind, 0.0
    )


def _record(violation: Violation, deduction: float) -> ViolationRecord:
    return ViolationRecord(
        rule=violation.rule,
        title=title_of(violation.rule),
        file=violation.file,
        message=violation.message,
        line=violation.line,
        source_line=violation.source_line,
        fix=violation.fix,
        deduction=deduction,
    )
