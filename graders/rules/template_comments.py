"""Rule ``template-comments``: the comments the template gives each function stay unchanged.

A function's comment block is read with :mod:`tokenize`:

* above the ``def`` (or its first decorator): the comment-only lines directly above it, over
  blank lines, up to the nearest line of code (or the file's header block, which
  ``header-block`` checks). The file may have extra comment lines *before* the template's
  block (e.g. a last comment of the previous function) or *after* it, just above the ``def``
  (a note of the student's own: the handout forbids modifying the given comments, not adding
  one), but the template's lines must stand together, unchanged;
* below the ``def`` line: the comment-only lines before the body's first statement. The
  template's lines must come first; the student may add comment lines after them.

Lines are compared whitespace-normalised: stripped, runs of whitespace collapsed, blank lines
dropped. With ``check_module_comments`` the template's other module-level comment blocks (not
the header, not a function's) must appear in the file too, in the same normalised form.
Functions missing from the file are left to ``template-functions``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from graders.rules import register
from graders.rules._functions import FunctionInfo, collect_functions, has_classes
from graders.rules._source import (
    Comment,
    SourceLines,
    leading_run,
    normalise,
    parse_template,
    require_tree,
    scan,
    shorten,
)
from graders.rules.base import Rule, RuleContext, Violation, messages_for


class CommentsOptions(BaseModel):
    """Options of ``template-comments``."""

    model_config = ConfigDict(extra="forbid")

    check_module_comments: bool = Field(
        default=False,
        description="Also require the template's module-level comment blocks that belong to "
        "no function and are not the header (e.g. a note above the import line).",
    )
    ignore: list[str] = Field(
        default_factory=list,
        description="Function names (plain or qualified) whose comments are not checked.",
    )


@dataclass(frozen=True)
class Block:
    """Normalised comment lines, each with the line it came from."""

    texts: list[str]
    lines: list[int]

    @classmethod
    def of(cls, comments: list[Comment]) -> Block:
        kept = [(normalise(c.text), c.line) for c in comments if normalise(c.text)]
        return cls([t for t, _ in kept], [n for _, n in kept])


@dataclass(frozen=True)
class Difference:
    """The first place two blocks differ: ``found_line`` is a line of the submitted file."""

    expected: str | None
    found: str | None
    found_line: int | None


def first_difference(expected: Block, found: Block, *,
                     extra: tuple[str, ...]) -> Difference | None:
    """Where ``found`` departs from ``expected``; extra lines are fine at the ends ``extra``
    names (``before``, ``after``), never between the template's lines."""
    ends = {0 if end == "before" else len(expected.texts) for end in extra}
    matcher = difflib.SequenceMatcher(None, expected.texts, found.texts, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "insert" and i1 in ends:
            continue
        return Difference(
            expected.texts[i1] if i1 < i2 else None,
            found.texts[j1] if j1 < j2 else None,
            found.lines[j1] if j1 < j2 else None,
        )
    return None


def header_end(lines: SourceLines, functions: list[FunctionInfo]) -> int:
    """Last line of the file's header block (0 when the first comments belong to a def)."""
    run = leading_run(lines)
    if not run or run[-1].line + 1 in {f.first_line for f in functions}:
        return 0
    return run[-1].line


def comments_above(lines: SourceLines, function: FunctionInfo, stop: int) -> list[Comment]:
    """Comment-only lines above ``function``, over blank lines, up to code or line ``stop``."""
    found: list[Comment] = []
    number = function.first_line - 1
    while number > stop and number not in lines.code:
        if number in lines.comments:
            found.append(lines.comments[number])
        number -= 1
    return found[::-1]


def comments_below(lines: SourceLines, function: FunctionInfo) -> list[Comment]:
    """Comment-only lines between the ``def`` line and the body's first statement."""
    start, end = function.node.lineno, function.node.body[0].lineno
    return [lines.comments[n] for n in range(start + 1, end) if n in lines.comments]


@dataclass(frozen=True)
class Side:
    """One file as this rule sees it: its lines, functions and header end."""

    lines: SourceLines
    functions: dict[str, FunctionInfo]
    header_end: int


def _side(source: str, functions: list[FunctionInfo]) -> Side:
    lines = scan(source)
    by_name: dict[str, FunctionInfo] = {}
    for function in functions:
        by_name.setdefault(function.qualname, function)
    return Side(lines, by_name, header_end(lines, functions))


@register
class TemplateComments(Rule):
    """Compares each template function's comment block with the file's."""

    name = "template-comments"
    compares_template = True
    checks_helpers = False
    Options = CommentsOptions
    options: CommentsOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        template_tree = parse_template(ctx, self.name)
        methods = has_classes(template_tree)
        template_functions = collect_functions(template_tree, methods=methods)
        template = _side(ctx.template or "", template_functions)
        found = _side(ctx.source, collect_functions(require_tree(ctx), methods=methods))
        ignored = set(self.options.ignore)
        for name, expected in template.functions.items():
            submitted = found.functions.get(name)
            if submitted is None or name in ignored or expected.name in ignored:
                continue
            yield from self._function(ctx, template, found, expected, submitted)
        if self.options.check_module_comments:
            yield from self._module_comments(ctx, template, found)

    def _function(
        self,
        ctx: RuleContext,
        template: Side,
        found: Side,
        expected: FunctionInfo,
        submitted: FunctionInfo,
    ) -> Iterator[Violation]:
        def_line = submitted.node.lineno
        above = (
            Block.of(comments_above(template.lines, expected, template.header_end)),
            Block.of(comments_above(found.lines, submitted, found.header_end)),
        )
        below = (
            Block.of(comments_below(template.lines, expected)),
            Block.of(comments_below(found.lines, submitted)),
        )
        checks = (
            (above, ("before", "after"), "deleted-above", "changed-above"),
            (below, ("after",), "deleted-below", "changed-below"),
        )
        for (want, got), extra, deleted, changed in checks:
            if not want.texts:
                continue
            if not got.texts:
                yield self.violation(ctx, deleted, line=def_line, name=expected.qualname)
                continue
            difference = first_difference(want, got, extra=extra)
            if difference is not None:
                yield self._changed(ctx, changed, expected, difference, def_line)

    def _changed(
        self, ctx: RuleContext, key: str, function: FunctionInfo, diff: Difference, line: int
    ) -> Violation:
        nothing = messages_for(self.name)["phrases"]["nothing"]
        return self.violation(
            ctx,
            key,
            line=diff.found_line or line,
            name=function.qualname,
            expected=shorten(diff.expected, 80) if diff.expected else nothing,
            found=shorten(diff.found, 80) if diff.found else nothing,
        )

    def _module_comments(
        self, ctx: RuleContext, template: Side, found: Side
    ) -> Iterator[Violation]:
        wanted = _module_blocks(template)
        have = Block.of([c for run in _module_blocks(found) for c in run]).texts
        for run in wanted:
            block = Block.of(run)
            if block.texts and not _contains(have, block.texts):
                yield self.violation(
                    ctx,
                    "module-comment",
                    first=shorten(block.texts[0], 80),
                    template_line=run[0].line,
                )


def _module_blocks(side: Side) -> list[list[Comment]]:
    """Runs of comments outside every function that are neither the header nor a def's block.

    A comment after a function's last statement counts as module-level.
    """
    taken = set(range(1, side.header_end + 1))
    for function in side.functions.values():
        taken.update(c.line for c in comments_above(side.lines, function, side.header_end))
        taken.update(range(function.first_line, (function.node.end_lineno or 0) + 1))
    runs: list[list[Comment]] = []
    for number in sorted(side.lines.comments):
        comment = side.lines.comments[number]
        if number in taken:
            continue
        if runs and not any(n in side.lines.code for n in range(runs[-1][-1].line, number)):
            runs[-1].append(comment)
        else:
            runs.append([comment])
    return runs


def _contains(haystack: list[str], needle: list[str]) -> bool:
    """True when ``needle`` occurs as consecutive items of ``haystack``."""
    size = len(needle)
    return any(haystack[i : i + size] == needle for i in range(len(haystack) - size + 1))
