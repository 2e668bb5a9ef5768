"""The pack model: assignment packs, found by looking for ``graders/packs/<id>/assignment.toml``.

A :class:`Pack` ties the declaration to the four trees that share its id. This module is engine
code and names no pack; ``graders/packs/`` is only the folder the packs live in.

A root other than the project's may bring packs of its own in ``<root>/packs/<id>/`` (the
worked example of docs/pack-authoring.md, ``tests/toy/``, is such a root): :func:`get_pack`
looks there after ``graders/packs/``, and :func:`load_pack` makes such a pack's modules
importable as ``graders.packs.<id>.<module>``, the names a bundled pack's modules have.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from graders import PACKAGE_DIR
from graders import packs as pack_folder
from graders.declaration import Declaration, load_declaration
from graders.errors import DeclarationError, GraderError
from graders.sandbox.isolation import Limits

PACKS_DIR = Path(pack_folder.__file__).resolve().parent


def project_root() -> Path:
    """The folder holding ``reference_solutions/``, ``student_templates/`` and ``fixtures/``."""
    return Path(os.environ.get("GRADERS_ROOT", PACKAGE_DIR.parent)).resolve()


@dataclass(frozen=True)
class Pack:
    """One assignment: its declaration and where its files live."""

    declaration: Declaration
    dir: Path
    root: Path
    #: Class consensus of the batch being graded (file -> lines most of the class shares that
    #: no bundled starter has): computed by the parent, taken for starter text.
    shared: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def id(self) -> str:
        return self.declaration.id

    @property
    def title(self) -> str:
        return self.declaration.title

    @property
    def settings(self) -> dict[str, Any]:
        return self.declaration.setting_values

    @property
    def limits(self) -> Limits:
        return self.declaration.limits.to_limits()

    @property
    def templates_dir(self) -> Path:
        return self.root / "student_templates" / self.id

    @property
    def reference_dir(self) -> Path:
        return self.root / "reference_solutions" / self.id

    @property
    def fixtures_dir(self) -> Path:
        return self.root / "fixtures" / self.id

    @property
    def golden_dir(self) -> Path:
        return self.fixtures_dir / "golden"

    @property
    def driver(self) -> Path:
        return self.dir / "driver.py"

    @cached_property
    def test_files(self) -> list[Path]:
        return sorted(self.dir.glob("test_*.py"))

    def session_args(self) -> list[str]:
        """The pytest arguments of a session over this pack's tests: its test files, the
        sessions' configuration, and no ``conftest.py`` from above the pack's folder (a pack
        kept in a course's own repository, or a test's toy pack, may have one above it)."""
        return [*map(str, self.test_files), "-c", str(PACKS_DIR / "pytest.ini"),
                "--rootdir", str(self.dir), "--confcutdir", str(self.dir)]

    @property
    def submitted_files(self) -> list[str]:
        spec = self.declaration.submission
        return [*spec.files, *spec.optional]

    def build_reference_workspace(self, target: Path) -> Path:
        """The reference solution's files with the locked files over them, in ``target``."""
        target.mkdir(parents=True, exist_ok=True)
        for name in self.submitted_files:
            path = self.reference_dir / name
            if path.is_file():
                shutil.copyfile(path, target / name)
        for name in self.declaration.locked.files:
            shutil.copyfile(self.templates_dir / name, target / name)
        return target

    def shared_lines(self, file: str) -> frozenset[str]:
        """The class-consensus lines of ``file`` (stripped), empty outside a batch."""
        return frozenset(line for name, lines in self.shared if name == file for line in lines)

    def with_shared(self, shared: Iterable[tuple[str, Iterable[str]]]) -> Pack:
        """This pack with the batch's class consensus."""
        return replace(self, shared=tuple((name, tuple(lines)) for name, lines in shared))

    def template_text(self, name: str) -> str:
        """Text of a file in the public starter kit."""
        path = self.templates_dir / name
        if not path.is_file():
            raise GraderError(f"pack {self.id!r}: starter file {path} is missing")
        return path.read_text(encoding="utf-8")


def load_pack(pack_dir: Path, root: Path | None = None) -> Pack:
    """The pack in ``pack_dir`` with its trees under ``root`` (default: :func:`project_root`)."""
    declaration = load_declaration(pack_dir / "assignment.toml")
    if declaration.id != pack_dir.name:
        raise DeclarationError(
            f"{pack_dir / 'assignment.toml'}: key `id`: must match the folder name "
            f"{pack_dir.name!r} (got {declaration.id!r})"
        )
    _importable(pack_dir)
    return Pack(declaration, pack_dir, root or project_root())


def _importable(pack_dir: Path) -> None:
    """A pack outside ``graders/packs/`` imports like a bundled one (its ``golden.py`` by
    ``graders.packs.<id>.golden``, its tests' helpers likewise): its parent folder joins the
    search path of ``graders.packs``, after ``graders/packs/`` so no bundled pack can be
    shadowed."""
    parent = str(pack_dir.resolve().parent)
    search = pack_folder.__path__
    if parent != str(PACKS_DIR) and parent not in search:
        search.append(parent)


def discover_packs(root: Path | None = None) -> dict[str, Pack]:
    """Every pack under ``graders/packs/``, by id."""
    return {
        path.parent.name: load_pack(path.parent, root)
        for path in sorted(PACKS_DIR.glob("*/assignment.toml"))
    }


def get_pack(pack_id: str, root: Path | None = None) -> Pack:
    """The pack ``pack_id``: in ``graders/packs/``, else in ``<root>/packs/``."""
    folders = [PACKS_DIR, (root or project_root()) / "packs"]
    for folder in folders:
        if (folder / pack_id / "assignment.toml").is_file():
            return load_pack(folder / pack_id, root)
    known = ", ".join(sorted(p.parent.name for f in folders for p in f.glob("*/assignment.toml")))
    raise GraderError(f"no assignment {pack_id!r}; known assignments: {known}")
