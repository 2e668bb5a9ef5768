"""Mutants of one source file: every place each operator applies, one fault per mutant.

A mutant's id is stable across edits elsewhere in the file: a short hash of the file name, the
mutated line's text, the operator and which occurrence on such a line it is (not the line
number), so a pack's ``equivalent_mutants.toml`` keeps naming the same mutant.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import warnings
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from graders.errors import GraderError


@dataclass(frozen=True)
class Mutant:
    """One planted fault: ``source`` is the whole mutated file."""

    id: str
    file: str
    line: int
    operator: str
    category: str
    description: str
    before: str
    after: str
    source: str

    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def summary(self) -> dict[str, object]:
        """What a report or mutation.json keeps of it (not the whole source)."""
        return {"id": self.id, "file": self.file, "line": self.line, "operator": self.operator,
                "description": self.description, "before": self.before, "after": self.after}


def mutants_of(source: str, file: str, skip_lines: Iterable[int] = ()) -> list[Mutant]:
    """Every valid, distinct mutant of ``source``; none starts on a line in ``skip_lines``.

    A mutation that does not compile, or compiles to the same program (same AST), is dropped;
    of two operators making the same file, the first is kept.
    """
    ast_nodes, get_ast, mutate_code, operators = _library()
    skipped = set(skip_lines)
    original = _dump(source)
    lines = source.splitlines()
    seen: set[str] = set()
    repeats: Counter[tuple[str, str]] = Counter()
    found = []
    for name, (category, description, operator) in operators().items():
        positions = [pos for node in ast_nodes(get_ast(source))
                     for pos in operator.mutation_positions(node)]
        for occurrence, ((line, _), _) in enumerate(positions):
            if line in skipped:
                continue
            mutated = mutate_code(source, operator, occurrence)
            if mutated is None or mutated in seen or _dump(mutated) in (None, original):
                continue
            seen.add(mutated)
            text = lines[line - 1].strip() if line <= len(lines) else ""
            repeats[(text, name)] += 1
            before, after = _changed(source, mutated)
            found.append(Mutant(
                id=_identity(file, text, name, repeats[(text, name)]), file=file, line=line,
                operator=name, category=category, description=description,
                before=before, after=after, source=mutated,
            ))
    return found


def _library() -> tuple[Any, Any, Any, Any]:
    """cosmic-ray, imported only when mutants are made: every `grade` command imports this
    package (commands register by import), and only this one needs the library."""
    try:
        from cosmic_ray.ast import ast_nodes, get_ast
        from cosmic_ray.mutating import mutate_code

        from graders.mutation.operators import operators
    except ImportError as exc:
        raise GraderError(f"mutation testing needs cosmic-ray ({exc}): "
                          "pip install cosmic-ray==8.7.0") from None
    return ast_nodes, get_ast, mutate_code, operators


def _dump(source: str) -> str | None:
    """The program's AST as text, or None when it does not compile."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # `x is 1` and the like still compile
        try:
            compile(source, "<mutant>", "exec")
            return ast.dump(ast.parse(source))
        except (SyntaxError, ValueError):
            return None


def _identity(file: str, line_text: str, operator: str, occurrence: int) -> str:
    key = f"{file}\0{line_text}\0{operator}\0{occurrence}".encode()
    return hashlib.sha256(key).hexdigest()[:10]


def _changed(before: str, after: str) -> tuple[str, str]:
    """The first line the mutation changed, before and after (stripped)."""
    old, new = before.splitlines(), after.splitlines()
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            was = old[i1].strip() if i1 < i2 else ""
            now = new[j1].strip() if j1 < j2 else "(line removed)"
            return was, now
    return "", ""


def block_lines(source: str, blocks: Iterable[str]) -> set[int]:
    """The lines of the named top-level blocks: a def or class by name, or ``__main__`` for
    the ``if __name__ == '__main__':`` block."""
    wanted = set(blocks)
    lines: set[int] = set()
    for node in ast.parse(source).body:
        if _block_name(node) in wanted:
            start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            lines.update(range(start, (node.end_lineno or node.lineno) + 1))
    return lines


def _block_name(node: ast.stmt) -> str | None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test) \
            and "__name__" in ast.unparse(node.test):
        return "__main__"
    return None
