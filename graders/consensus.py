"""Class consensus: the starter a batch really had, read from the batch itself.

Real classes wrote against the course's own starter, which may differ from the one bundled here
(a reconstruction, or a starter patched mid-term). When at least ``[submission] class_share``
(default 60 %) of the batch's copies of a starter file (one named in ``templates``,
``starter_text`` or ``starter_versions``) hold a line that no bundled starter version and no
reference solution holds, that line is the class's starter, not each student's work: the rules
that judge against the starter take it for a starter line (:meth:`graders.pack.Pack.shared_lines`),
and the index and the console tell the instructor which lines of which files. A line inside a
function the bundled starter leaves for the student to write (its body a ``pass``, ``...``,
docstring or ``raise NotImplementedError``) is the student's own wherever it stands: students
who write the same line there (a short one, or work shared among a few) are not a starter.

A batch fact: the parent computes it once, over every prepared submission, before any rule runs,
and it is part of every student's grading key. A line is compared stripped, and also with its
comments and prompt wording left out (:mod:`graders.rules._code_lines`), the form the
code-line count reads. Nothing here runs student code.
"""

from __future__ import annotations

import ast
import contextlib
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from graders.pack import Pack
from graders.rules._code_lines import code_lines
from graders.sandbox.harness_kit import raises_not_implemented
from graders.source_lines import python_lines, python_newlines
from graders.starter import starter_versions
from graders.submissions import Submission


@dataclass(frozen=True)
class SharedLines:
    """Lines of one starter file most of the batch shares and no bundled starter has."""

    file: str
    lines: tuple[str, ...]  # stripped, in the order of the first copy holding them
    copies: int  # copies of the file in the batch
    needed: int  # copies a line had to be in

    def to_dict(self) -> dict[str, object]:
        return {"file": self.file, "lines": list(self.lines), "copies": self.copies,
                "needed": self.needed}


def starter_files(pack: Pack) -> list[str]:
    """The files the pack has a starter for, in declaration order."""
    spec = pack.declaration.submission
    names = [*spec.templates, *spec.starter_text, *spec.starter_versions]
    return list(dict.fromkeys(names))


def class_consensus(pack: Pack, submissions: Sequence[Submission]) -> tuple[SharedLines, ...]:
    """The class's shared starter lines, per starter file (files with none left out)."""
    spec = pack.declaration.submission
    if spec.class_share <= 0:
        return ()
    found = []
    for file in starter_files(pack):
        copies = [s.files[file] for s in sorted(submissions, key=lambda s: s.id) if file in s.files]
        if len(copies) < spec.class_min:
            continue
        needed = max(2, math.ceil(spec.class_share * len(copies) - 1e-9))
        known = _known(pack, file)
        stubs = _stubs(starter_versions(pack, file))
        each = [_ordered(copy, stubs) for copy in copies]  # each copy's lines, once each
        counts = Counter(line for lines in each for line in lines)
        lines = [line for line in dict.fromkeys(line for lines in each for line in lines)
                 if counts[line] >= needed and line not in known]
        if lines:
            found.append(SharedLines(file, tuple(lines), len(copies), needed))
    return tuple(found)


def as_option(found: Sequence[SharedLines]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The plain form the shares carry (``GradeOptions.shared``, :meth:`Pack.with_shared`)."""
    return tuple((shared.file, shared.lines) for shared in found)


def forms(source: str, stubs: frozenset[str] = frozenset()) -> frozenset[str]:
    """Every non-blank line of ``source``, stripped, and its code without comments and
    prompt wording; but for the lines in the bodies of the functions ``stubs`` names."""
    return frozenset(_ordered(source, stubs))


def _ordered(source: str, stubs: frozenset[str] = frozenset()) -> list[str]:
    own = _bodies(source, stubs)
    lines = [s for number, s in enumerate((line.strip() for line in python_lines(source)), 1)
             if s and number not in own]
    with contextlib.suppress(SyntaxError, ValueError, RecursionError, MemoryError):
        lines += [text for number, text in code_lines(source) if number not in own]
    return list(dict.fromkeys(lines))


def _stubs(starters: Sequence[str]) -> frozenset[str]:
    """The functions every starter version leaves for the student to write: a body of only
    ``pass``, ``...``, a docstring or ``raise NotImplementedError``."""
    found: list[set[str]] = []
    for text in starters:
        with contextlib.suppress(SyntaxError, ValueError, RecursionError, MemoryError):
            tree = ast.parse(text)
            found.append({node.name for node in ast.walk(tree)
                          if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                          and all(map(_placeholder, node.body))})
    return frozenset(set.intersection(*found)) if found else frozenset()


def _placeholder(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Pass):
        return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
        return True  # a docstring, or ...
    return raises_not_implemented(statement)


def _bodies(source: str, stubs: frozenset[str]) -> set[int]:
    """The line numbers of the bodies of the functions ``stubs`` names in ``source`` (none
    where it does not parse)."""
    if not stubs:
        return set()
    try:
        tree = ast.parse(python_newlines(source))  # numbered as python_lines numbers them
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    return {number for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in stubs
            for number in range(node.body[0].lineno, (node.end_lineno or 0) + 1)}


def _known(pack: Pack, file: str) -> frozenset[str]:
    """The lines of every bundled starter version, declared starter text and the reference."""
    texts = list(starter_versions(pack, file))
    texts.append("\n".join(pack.declaration.submission.starter_text.get(file, [])))
    reference = pack.reference_dir / file
    if reference.is_file():
        texts.append(reference.read_text(encoding="utf-8"))
    return frozenset(line for text in texts for line in forms(text))
