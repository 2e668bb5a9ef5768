"""Rule ``forbidden-import``: only the imports the assignment allows, where it allows them.

Import statements are compared as syntax trees, so ``from x import (a)`` and
``from   x import a`` are the same statement, whatever the spacing. An ``allowed`` or
``required`` statement counts only at the top level of the file; a module in
``allowed_modules`` may be imported anywhere, in any form (including ``__import__("name")``).
Dynamic imports, ``exec``/``eval``/``compile`` (unless the file defines that name itself, as a
template's ``eval``) and ``sys.modules`` are reported too.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict, Field, field_validator

from graders.rules import register
from graders.rules._import_scan import FoundImport, ImportNode, find_imports
from graders.rules._source import normalise, require_tree
from graders.rules.base import Rule, RuleContext, Violation, messages_for

NEAR_MATCH_RATIO = 0.75


def parse_statement(text: str) -> ImportNode:
    """The one import statement written in ``text``; ``ValueError`` for anything else."""
    try:
        body = ast.parse(text.strip()).body
    except SyntaxError as error:
        raise ValueError(f"{text!r} is not valid Python: {error.msg}") from None
    if len(body) != 1 or not isinstance(body[0], ast.Import | ast.ImportFrom):
        raise ValueError(f"{text!r} is not one import statement")
    return body[0]


def statement_key(node: ImportNode) -> str:
    """What two import statements must share to be the same statement."""
    return ast.dump(node)


def imported_modules(node: ImportNode) -> list[str]:
    """The modules a statement imports (a relative import's name starts with dots)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return ["." * node.level + (node.module or "")]


class ImportOptions(BaseModel):
    """Options of ``forbidden-import``."""

    model_config = ConfigDict(extra="forbid")

    allowed: list[str] = Field(
        default_factory=list,
        description="Import statements allowed at the top level of the file, written in full, "
        "e.g. 'from game_classes import *'. Spacing does not matter.",
    )
    allowed_modules: list[str] = Field(
        default_factory=list,
        description="Modules (and their submodules) that may be imported anywhere in any form, "
        "e.g. ['doctest', 'typing'].",
    )
    required: list[str] = Field(
        default_factory=list,
        description="Import statements of the template that must stay at the top level, "
        "unchanged; a changed one is reported as changed (and is allowed as it was).",
    )
    ide_modules: list[str] = Field(
        default_factory=lambda: ["typing", "typing_extensions", "__future__", "builtins"],
        description="Modules editors such as PyCharm import on their own (for type hints); "
        "the message for such an import says so.",
    )

    @field_validator("allowed", "required")
    @classmethod
    def _each_is_an_import(cls, statements: list[str]) -> list[str]:
        for text in statements:
            parse_statement(text)
        return statements


@register
class ForbiddenImport(Rule):
    """Reports imports, dynamic imports, dynamic code and ``sys.modules``."""

    name = "forbidden-import"
    Options = ImportOptions
    options: ImportOptions

    def check(self, ctx: RuleContext) -> Iterator[Violation]:
        scan = find_imports(require_tree(ctx), self._module_allowed)
        texts = self.options.allowed + self.options.required
        allowed = {statement_key(parse_statement(t)) for t in texts}
        bad = [found for found in scan.imports if not self._import_allowed(found, allowed)]
        found_violations = list(self._required(ctx, scan.imports, bad))
        found_violations += [self._forbidden(ctx, found) for found in bad]
        found_violations += [
            self.violation(ctx, use.key, use.node, what=use.what) for use in scan.uses
        ]
        yield from sorted(found_violations, key=lambda v: (v.line or 0, v.column or 0))

    def _module_allowed(self, module: str) -> bool:
        return any(module == m or module.startswith(m + ".") for m in self.options.allowed_modules)

    def _import_allowed(self, found: FoundImport, allowed: set[str]) -> bool:
        if all(self._module_allowed(m) for m in imported_modules(found.node)):
            return True
        return found.container is None and statement_key(found.node) in allowed

    def _required(
        self, ctx: RuleContext, imports: list[FoundImport], bad: list[FoundImport]
    ) -> Iterator[Violation]:
        """Missing, moved or changed required statements; the import blamed leaves ``bad``."""
        for text in self.options.required:
            wanted = parse_statement(text)
            key = statement_key(wanted)
            if any(f.container is None and statement_key(f.node) == key for f in imports):
                continue
            shown = normalise(text)
            moved = next((f for f in bad if statement_key(f.node) == key), None)
            near = moved or _near_match(ctx, wanted, shown, bad)
            if near is None:
                yield self.violation(ctx, "missing-import", required=shown)
                continue
            bad.remove(near)
            if moved is not None:
                yield self.violation(
                    ctx, "moved-import", near.node, required=shown, container=near.container
                )
            else:
                found_text = _statement_text(ctx, near.node)
                yield self.violation(
                    ctx, "changed-import", near.node, required=shown, found=found_text
                )

    def _forbidden(self, ctx: RuleContext, found: FoundImport) -> Violation:
        text = _statement_text(ctx, found.node)
        allowed = self._allowed_phrase()
        roots = {m.lstrip(".").split(".")[0] for m in imported_modules(found.node)}
        ide = sorted(roots & set(self.options.ide_modules))
        if ide:
            return self.violation(
                ctx, "ide-import", found.node, statement=text, allowed=allowed, module=ide[0]
            )
        if found.container is not None:
            return self.violation(
                ctx,
                "nested-import",
                found.node,
                statement=text,
                allowed=allowed,
                container=found.container,
            )
        return self.violation(ctx, "import", found.node, statement=text, allowed=allowed)

    def _allowed_phrase(self) -> str:
        """'this assignment allows only ...' built from the wording in messages.toml."""
        phrases = messages_for(self.name)["phrases"]
        texts = dict.fromkeys(self.options.required + self.options.allowed)
        statements = [f"`{normalise(t)}`" for t in texts]
        modules = [phrases["module"].format(module=m) for m in self.options.allowed_modules]
        items = statements + modules
        if not items:
            return str(phrases["nothing"])
        return str(phrases["allowed"].format(items=phrases["joiner"].join(items)))


def _statement_text(ctx: RuleContext, node: ImportNode) -> str:
    return normalise(ast.get_source_segment(ctx.source, node) or ast.unparse(node))


def _near_match(
    ctx: RuleContext, wanted: ImportNode, shown: str, candidates: list[FoundImport]
) -> FoundImport | None:
    """The candidate most like ``wanted``: same module (any case), else similar text."""
    wanted_modules = {m.lower() for m in imported_modules(wanted)}
    for found in candidates:
        if wanted_modules & {m.lower() for m in imported_modules(found.node)}:
            return found
    best, best_ratio = None, NEAR_MATCH_RATIO
    for found in candidates:
        ratio = difflib.SequenceMatcher(None, shown, _statement_text(ctx, found.node)).ratio()
        if ratio >= best_ratio:
            best, best_ratio = found, ratio
    return best
