"""Rule ``header-block``: a filled-in header comment block opens the file.

The header is the first run of comment-only lines (read with :mod:`tokenize`) that matches
``first_line_pattern`` on its first line, or that names one of the ``fields``. A field line is
``<label>: <value>`` anywhere in the block (label matched ignoring case and spacing); the value
ends before trailing decoration (``##``). A value that is empty or made only of the placeholder
character (any case) and spaces is not filled in. Anything before the block but blank lines
and a shebang or encoding line (code, a docstring, other comments) means it is not at the top.
The rule reads comments only, so it also runs on a file that does not parse.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict, Field, field_validator

from graders.rules import register
from graders.rules._source import Comment, SourceLines, comment_runs, scan, shorten
from graders.rules.base import Rule, RuleContext, Violation

_DECORATION = re.compile(r"(\s+#+|#{2,})\s*$")
_PREAMBLE = re.compile(r"^#!|coding[:=]")  # a shebang or encoding line may come first


class HeaderOptions(BaseModel):
    """Options of ``header-block``."""

    model_config = ConfigDict(extra="forbid")

    fields: list[str] = Field(
        default_factory=list,
        description="Labels that must appear in the block, each followed by ':' and a value, "
        "e.g. ['Script File Name', 'Student Name', 'Login Name', 'MUN #'].",
    )
    placeholder_char: str = Field(
        default="X",
        min_length=1,
        max_length=1,
        description="The character the template fills values with; a value made only of it "
        "(any case) and spaces is not filled in.",
    )
    first_line_pattern: str | None = Field(
        default=None,
        description="Regular expression the block's first line must match (after stripping), "
        "e.g. '^#{20,}$'.",
    )

    @field_validator("first_line_pattern")
    @classmethod
    def _compiles(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as error:
                raise ValueError(f"not a regular expression: {error}") from None
        return pattern


def _without_preamble(run: list[Comment]) -> list[Comment]:
    """``run`` without a leading shebang or encoding line."""
    start = 0
    while start < len(run) and _PREAMBLE.search(run[start].text):
        start += 1
    return run[start:]


def field_pattern(label: str) -> re.Pattern[str]:
    """``<label> : <value>`` with any spacing and case in the label."""
    words = [re.escape(word) for word in label.split()]
    return re.compile(r"(?<!\w)" + r"\s*".join(words) + r"\s*:(?P<value>.*)$", re.IGNORECASE)


def field_value(raw: str) -> str:
    """The value of a field line with trailing ``##`` decoration and spaces removed."""
    return _DECORATION.sub("", raw).strip()


@register
class HeaderBlock(Rule):
    """Checks that the header block is there, at the top, with every field filled in."""

    name = "header-block"
    compares_template = True  # an unfilled header IS the starter's text: judge it anyway
    checks_helpers = False
    needs_tree = False  # comments only: a file that does not parse still gets header feedback
    Options = HeaderOptions
    options: HeaderOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        lines = scan(ctx.source)
        block = self._find(lines)
        if block is None:
            yield self.violation(ctx, "missing", line=1, fields=self._field_list())
            return
        start = block[0].line
        before = [c for n, c in lines.comments.items() if n < start]
        if any(line < start for line in lines.code) or any(
            not _PREAMBLE.search(c.text) for c in before
        ):
            yield self.violation(ctx, "not-at-top", line=start)
        pattern = self.options.first_line_pattern
        if pattern and not re.search(pattern, block[0].text.strip()):
            yield self.violation(ctx, "first-line", line=start, found=shorten(block[0].text))
        for label in self.options.fields:
            yield from self._check_field(ctx, block, label)

    def _find(self, lines: SourceLines) -> list[Comment] | None:
        """The header block: the first run that matches the pattern or names a field."""
        pattern = self.options.first_line_pattern
        labels = [field_pattern(label) for label in self.options.fields]
        for run in map(_without_preamble, comment_runs(lines)):
            if not run:
                continue
            if pattern and re.search(pattern, run[0].text.strip()):
                return run
            if any(p.search(c.text) for p in labels for c in run):
                return run
        if not pattern and not labels:
            runs = comment_runs(lines)
            return runs[0] if runs else None
        return None

    def _check_field(
        self, ctx: RuleContext, block: list[Comment], label: str
    ) -> Iterator[Violation]:
        pattern = field_pattern(label)
        for comment in block:
            match = pattern.search(comment.text)
            if match is None:
                continue
            value = field_value(match.group("value"))
            if not value:
                yield self.violation(ctx, "empty-field", line=comment.line, field=label)
            elif self._unfilled(value):
                yield self.violation(
                    ctx, "unfilled-field", line=comment.line, field=label, value=value
                )
            return
        yield self.violation(
            ctx, "missing-field", line=block[0].line, field=label, last=block[-1].line
        )

    def _unfilled(self, value: str) -> bool:
        placeholder = self.options.placeholder_char.lower()
        return all(ch in {placeholder, " "} for ch in value.lower())

    def _field_list(self) -> str:
        return ", ".join(f"`{label}:`" for label in self.options.fields) or "—"
