"""The rule interface: a rule reads source with ``ast`` and never runs it.

Each rule lives in its own module in this package and registers itself with :func:`register`.
Its student-facing wording is data, kept in ``messages.toml`` under the rule's name.
"""

from __future__ import annotations

import ast
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from graders.source_lines import python_lines

MESSAGES_FILE = Path(__file__).with_name("messages.toml")


@dataclass(frozen=True)
class Violation:
    """One broken rule at one place in one file, worded for the student."""

    rule: str
    file: str
    message: str
    line: int | None = None
    column: int | None = None
    source_line: str | None = None
    fix: str | None = None
    kind: str = ""  # the checker's own message id (pep8: the pycodestyle code)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class RuleContext:
    """Everything a rule may read about one submitted file."""

    file: str
    source: str
    tree: ast.Module | None
    template: str | None = None
    locked: Mapping[str, str] = field(default_factory=dict)
    submitted: Mapping[str, str] = field(default_factory=dict)
    #: Stripped lines most of the class shares that no bundled starter has (class consensus):
    #: rules that compare with the template take them for starter lines.
    shared: frozenset[str] = frozenset()

    @cached_property
    def lines(self) -> list[str]:
        """The source's lines, split once (a file with 30,000 violations asks 30,000 times)."""
        return python_lines(self.source)

    def line_text(self, line: int | None) -> str | None:
        if line is None:
            return None
        lines = self.lines
        return lines[line - 1] if 0 < line <= len(lines) else None


class NoOptions(BaseModel):
    """Options of a rule that takes none."""

    model_config = ConfigDict(extra="forbid")


class Rule(ABC):
    """A check on the source of one submitted file.

    Subclasses set ``name`` (the registry key used in ``assignment.toml``), optionally an
    ``Options`` pydantic model, and implement :meth:`check`.
    """

    name: ClassVar[str]
    Options: ClassVar[type[BaseModel]] = NoOptions
    needs_tree: ClassVar[bool] = True
    #: Judges the file against its starter (a difference, or starter text left unchanged), so
    #: its violations are kept on starter lines.
    compares_template: ClassVar[bool] = False
    #: Also applies to the student's own helper modules (when the pack names files).
    checks_helpers: ClassVar[bool] = True

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options = self.Options.model_validate(dict(options or {}))

    @classmethod
    def with_entries(cls, options: Mapping[str, Any], entries: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` with what they read from the pack's ``[entries]`` tables filled in
        (ValueError when they name one that cannot serve); most rules read none."""
        return dict(options)

    @abstractmethod
    def check(self, ctx: RuleContext) -> Iterable[Violation]:
        """Yield the violations found in ``ctx``."""

    def violation(
        self,
        ctx: RuleContext,
        key: str,
        node: ast.AST | None = None,
        *,
        line: int | None = None,
        kind: str = "",
        **fields: Any,
    ) -> Violation:
        """Build a violation from the message ``key`` of this rule in ``messages.toml``."""
        if node is not None and line is None:
            line = getattr(node, "lineno", None)
        column = getattr(node, "col_offset", None) if node is not None else None
        wording = messages_for(self.name)
        template = wording["messages"][key]
        return Violation(
            rule=self.name,
            file=ctx.file,
            message=template.format(file=ctx.file, line=line, **fields),
            line=line,
            column=column,
            source_line=ctx.line_text(line),
            fix=wording.get("fixes", {}).get(key) or wording.get("fix"),  # a message's own
            kind=kind,
        )


@cache
def all_messages() -> dict[str, Any]:
    with MESSAGES_FILE.open("rb") as handle:
        return tomllib.load(handle)


def messages_for(rule: str) -> dict[str, Any]:
    """The wording table of ``rule``: ``title``, ``fix`` and ``messages.<key>`` templates."""
    try:
        return all_messages()[rule]
    except KeyError:
        raise KeyError(f"{MESSAGES_FILE}: no [{rule}] table for rule {rule!r}") from None
