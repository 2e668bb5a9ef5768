"""Rule ``changed-lines``: a starter file edited in few lines, and only where allowed.

For handouts like "add or modify fewer than a dozen lines of game_view.py, and do not change
any other part". The file is compared line by line with its template (``difflib``, trailing
whitespace ignored). Each differing hunk counts ``max(lines removed, lines added)``: a changed
line is one, an added or deleted line is one. Blank lines are not counted unless
``count_blank``. With ``code_only``, both sides are first reduced to their code lines
(:func:`graders.rules._code_lines.code_lines`: no docstrings, comments, blank lines, and the
wording of ``input()`` prompts read as ``''``), so only changed code counts and is placed.

Where: with ``regions`` set, every changed line of code must lie in one of them, on both sides
(a template line removed or changed, a submitted line added or changed); all such lines are
reported as one violation:

* ``imports``: module-level ``import`` / ``from ... import`` statements;
* ``main``: the module-level ``if __name__ == '__main__':`` block.

Comment-only and blank lines may change anywhere (they still count towards the limit, unless
``code_only``).

Lines most of the class shares (class consensus, ``RuleContext.shared``) are starter lines: an
added one is not counted, and stands for the template line it replaced.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from graders.rules import register
from graders.rules._code_lines import code_lines
from graders.rules._source import is_main_guard, parse_template, require_tree, scan, shorten
from graders.rules.base import Rule, RuleContext, Violation, messages_for
from graders.source_lines import python_lines

Region = Literal["imports", "main"]
T = TypeVar("T")


def _menus() -> list[Region]:
    return ["imports", "main"]


class ChangedLinesOptions(BaseModel):
    """Options of ``changed-lines``."""

    model_config = ConfigDict(extra="forbid")

    max_changed: int = Field(
        11, ge=0, description="Most lines that may differ from the template ('fewer than a "
        "dozen' is 11)."
    )
    regions: list[Region] = Field(
        default_factory=_menus,
        description="Where code may change: 'imports' (module-level imports) and/or 'main' "
        "(the `if __name__ == '__main__':` block). Empty: anywhere.",
    )
    count_blank: bool = Field(False, description="Count added or removed blank lines too.")
    code_only: bool = Field(
        False, description="Compare and count code lines only: docstrings, comments, blank "
        "lines and the wording of input() prompts are left out.")


@dataclass(frozen=True)
class Hunk:
    """One run of differing lines: 0-based [start, end) in the template and in the file."""

    t_start: int
    t_end: int
    s_start: int
    s_end: int


@dataclass(frozen=True)
class FileView:
    """One side: the (line number, text) rows compared, which of them count towards the limit,
    which hold code, which lie in an allowed region, and the file's own lines."""

    rows: list[tuple[int, str]]
    counted: frozenset[int]
    code: frozenset[int]
    allowed: frozenset[int]
    lines: list[str]

    def nearest(self, index: int) -> int:
        """The line number of row ``index``, or of the last row past the end (1 if none)."""
        return self.rows[min(index, len(self.rows) - 1)][0] if self.rows else 1


def region_lines(tree: ast.Module, regions: Sequence[str]) -> frozenset[int]:
    """1-based line numbers inside the named regions of a module."""
    lines: set[int] = set()
    for node in tree.body:
        imports = isinstance(node, ast.Import | ast.ImportFrom) and "imports" in regions
        if imports or ("main" in regions and is_main_guard(node)):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return frozenset(lines)


def hunks(template: list[str], source: list[str]) -> list[Hunk]:
    """The differing runs between two lists of lines (compared without trailing spaces)."""
    matcher = difflib.SequenceMatcher(
        None, [t.rstrip() for t in template], [s.rstrip() for s in source], autojunk=False
    )
    return [Hunk(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
            if tag != "equal"]


def unshared(
    removed: list[T], added: list[T], is_shared: Callable[[T], bool]
) -> tuple[list[T], list[T]]:
    """The removed and added lines of one hunk that count against the student. An added line
    the class shares (class consensus) is starter text, and stands for the starter line it
    replaced: the first removed line is taken off for each."""
    shared = sum(1 for line in added if is_shared(line))
    return removed[shared:], [line for line in added if not is_shared(line)]


def ranges(numbers: list[int]) -> str:
    """'3-5, 9' for [3, 4, 5, 9]."""
    parts: list[str] = []
    for number in sorted(set(numbers)):
        if parts and int(parts[-1].split("-")[-1]) == number - 1:
            parts[-1] = f"{parts[-1].split('-')[0]}-{number}"
        else:
            parts.append(str(number))
    return ", ".join(parts)


@register
class ChangedLines(Rule):
    """Counts and places the lines a file changes relative to its template."""

    name = "changed-lines"
    compares_template = True
    checks_helpers = False
    Options = ChangedLinesOptions
    options: ChangedLinesOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        template = self._view(ctx.template or "", parse_template(ctx, self.name))
        found = self._view(ctx.source, require_tree(ctx))
        diffs = hunks([t for _, t in template.rows], [t for _, t in found.rows])

        def shared(row: tuple[int, str]) -> bool:
            return row[1].strip() in ctx.shared

        counted, touched = 0, []
        for h in diffs:
            removed, added = unshared(
                [r for r in template.rows[h.t_start:h.t_end] if r[0] in template.counted],
                [r for r in found.rows[h.s_start:h.s_end] if r[0] in found.counted], shared)
            counted += max(len(removed), len(added))
            if removed or added:
                touched += [n for n, _ in added] or [found.nearest(h.s_start)]
        if self.options.regions:
            yield from self._outside(ctx, template, found, diffs, shared)
        if counted > self.options.max_changed:
            unit = messages_for(self.name)["phrases"]["code" if self.options.code_only else "raw"]
            yield self.violation(
                ctx, "too-many", line=touched[0] if touched else None, count=counted, unit=unit,
                limit=self.options.max_changed, lines=ranges(touched),
            )

    def _view(self, source: str, tree: ast.Module) -> FileView:
        allowed = region_lines(tree, self.options.regions) if self.options.regions else frozenset()
        lines = python_lines(source)
        if self.options.code_only:
            rows = code_lines(source)
            numbers = frozenset(n for n, _ in rows)
            return FileView(rows, numbers, numbers, allowed, lines)
        rows = list(enumerate(lines, start=1))
        counted = frozenset(n for n, text in rows if self.options.count_blank or text.strip())
        return FileView(rows, counted, scan(source).code, allowed, lines)

    def _outside(
        self, ctx: RuleContext, template: FileView, found: FileView, diffs: list[Hunk],
        shared: Callable[[tuple[int, str]], bool],
    ) -> Iterator[Violation]:
        """One violation for all code changed outside the allowed regions."""
        added, removed = [], []
        for h in diffs:
            gone, new = unshared(template.rows[h.t_start:h.t_end], found.rows[h.s_start:h.s_end],
                                 shared)
            added += [n for n, _ in new if n in found.code and n not in found.allowed]
            removed += [(n, found.nearest(h.s_start)) for n, _ in gone
                        if n in template.code and n not in template.allowed]
        phrases = messages_for(self.name)["phrases"]
        where = phrases["joiner"].join(phrases[region] for region in self.options.regions)
        if added:
            yield self.violation(ctx, "outside-added", line=added[0], lines=ranges(added),
                                 regions=where)
        elif removed:
            template_line, line = removed[0]
            yield self.violation(
                ctx, "outside-removed", line=line, template_line=template_line,
                text=shorten(template.lines[template_line - 1], 70), regions=where,
            )
