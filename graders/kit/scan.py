"""What must never be in a kit, and a scan of a built kit for any of it.

Hidden material of a pack: its hidden golden files and inputs (``fixtures/<id>/golden``,
``fixtures/<id>/inputs``), the reference solution, its oracles and
generators (:data:`graders.kit.vendor.RECORDED`), and every line of its grader test modules
that the kit's cut of them leaves out (hidden tests, their seeds, helpers only they use).
A line that is also starter text, or part of a helper the kit must run on the student's
output (the pack's ``[kit] shipped``), is not hidden.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from graders.kit.slicer import slice_module
from graders.kit.vendor import RECORDED
from graders.pack import Pack

MIN_LINE = 24  # shorter lines (``return result``) are common to any code
MIN_FILE = 40


@dataclass
class Hidden:
    """Whole texts and single lines that no kit file may contain."""

    texts: dict[str, str] = field(default_factory=dict)  # where -> text
    lines: dict[str, str] = field(default_factory=dict)  # stripped line -> where
    names: dict[str, str] = field(default_factory=dict)  # hidden test name -> module


def _lines(text: str) -> set[str]:
    """The lines that say something: long enough, and not an import (imports are shared)."""
    return {s for s in (line.strip() for line in text.splitlines())
            if len(s) >= MIN_LINE and not s.startswith(("from ", "import "))}


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []


def hidden_material(pack: Pack, public: dict[str, set[str]]) -> Hidden:
    """The hidden material of ``pack``; ``public`` maps test module stems to public tests."""
    found = Hidden()
    allowed: set[str] = set()
    for path in _files(pack.templates_dir):
        allowed |= _lines(path.read_text("utf-8", errors="replace"))
    for stem, names in pack.declaration.kit.shipped.items():
        path = pack.dir / f"{stem}.py"
        allowed |= _lines(slice_module(path.read_text("utf-8"), set(names)).text)
    candidates: dict[str, str] = {}
    for folder in (pack.golden_dir, pack.fixtures_dir / "inputs", pack.reference_dir):
        for path in _files(folder):
            candidates[str(path)] = path.read_text("utf-8", errors="replace")
    for stem in RECORDED:
        path = pack.dir / f"{stem}.py"
        if path.is_file():
            candidates[str(path)] = path.read_text("utf-8")
    for path in pack.test_files:
        text = path.read_text("utf-8")
        kept = slice_module(text, public.get(path.stem, set())).text
        allowed_here = _lines(kept)
        for line in _lines(text) - allowed_here:
            found.lines.setdefault(line, str(path))
        for name in _test_names(text) - public.get(path.stem, set()):
            found.names[name] = str(path)
    for where, text in candidates.items():
        if len(text.strip()) >= MIN_FILE:
            found.texts[where] = text.strip()
        for line in _lines(text) - allowed:
            found.lines.setdefault(line, where)
    return found


def _test_names(text: str) -> set[str]:
    import ast  # noqa: PLC0415

    return {node.name for node in ast.parse(text).body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def kit_texts(kit_zip: Path) -> dict[str, str]:
    """Every file of a kit zip as text."""
    with zipfile.ZipFile(kit_zip) as archive:
        return {name: archive.read(name).decode("utf-8", errors="replace")
                for name in archive.namelist() if not name.endswith("/")}


def public_lines(kit: dict[str, str]) -> set[str]:
    """Lines of the kit's public helper code: the pack's drivers (child side, shipped by
    design) and the cut of its non-hidden helper modules. A hidden line that is also one of
    these (``other = "p2" if player == "p1" else "p1"``) is no secret."""
    found: set[str] = set()
    for name, text in kit.items():
        parts = name.split("/")
        helper = "packs" in parts and not parts[-1].startswith("test_") \
            and "kit_stub import helper" not in text
        if name.endswith(".py") and ("harness" in parts or helper):
            found |= _lines(text)
    return found


def leaks(kit: dict[str, str], hidden: Hidden) -> list[str]:
    """Each piece of hidden material found in the kit, with the kit file holding it."""
    found = []
    shared = public_lines(kit)
    kit_lines = {name: {line.strip() for line in text.splitlines()} - shared
                 for name, text in kit.items()}
    for name, text in kit.items():
        for where, secret in hidden.texts.items():
            if secret in text:
                found.append(f"{name} holds all of {where}")
        for test, module in hidden.names.items():
            if f"def {test}(" in text:
                found.append(f"{name} holds the hidden test {test} of {module}")
    for name, lines in kit_lines.items():
        for line in lines & hidden.lines.keys():
            found.append(f"{name} holds a line of {hidden.lines[line]}: {line[:80]}")
    return found
