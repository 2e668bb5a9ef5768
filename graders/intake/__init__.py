"""Intake: turn what an LMS exports (or a plain class folder) into submissions to grade.

One module per layout, each defining a :class:`~graders.intake.base.Layout` subclass, found by
looking (like the rule registry). :func:`ingest` unpacks a class zip safely, steps into a
wrapper folder when an export sits inside one (and says so), picks the layout (or takes the
one asked for) and returns what it found. Times come from the export's own metadata only; the
student's files never give one.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path

from graders.errors import GraderError
from graders.intake.base import Found, Intake, Layout, entries, unpack

__all__ = ["Found", "Intake", "Layout", "detect_layout", "get_layout", "ingest", "layouts"]


@cache
def layouts() -> dict[str, Layout]:
    """Every layout by name, in detection order (the plain layout last)."""
    found: list[Layout] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name in {"base", "roster"}:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, Layout) and value is not Layout
                    and value.__module__ == module.__name__):
                found.append(value())
    found.sort(key=lambda layout: (layout.priority, layout.name))
    return {layout.name: layout for layout in found}


def get_layout(name: str) -> Layout:
    known = layouts()
    if name not in known:
        raise GraderError(f"no layout {name!r}; known layouts: {', '.join(known)}")
    return known[name]


def ingest(path: Path, stage: Path, layout: str | None = None) -> Intake:
    """The submissions under ``path`` (a folder, a class zip, a student's zip or file).

    ``stage`` is an empty folder this call may fill (unpacked zips, renamed files); it must
    live as long as the submissions are graded. A zip no LMS layout recognises is one
    student's hand-in, as a file is.
    """
    from graders.intake.plain import single

    if path.is_file() and path.suffix.lower() != ".zip":
        return Intake("plain", [single(path)])
    notes: list[str] = []
    root = path
    if path.is_file():
        unpacked = stage / "unpacked"
        unpacked.mkdir(parents=True)
        unpack_notes = unpack(path, unpacked)
        root, wrapper = _unwrapped(unpacked, layout)
        if _lms(root, layout) is None:  # not an LMS export: one student's zip
            if layout not in (None, "plain"):
                raise GraderError(f"{path}: not a {get_layout(layout).title} export")
            return Intake("plain", [single(path)])
        notes = unpack_notes + wrapper
    else:
        root, notes = _unwrapped(path, layout)
    chosen = get_layout(layout) if layout else (_lms(root, None) or get_layout("plain"))
    intake = chosen.read(root, stage / "staged")
    intake.notes = notes + intake.notes
    return intake


def detect_layout(root: Path) -> Layout:
    """The layout ``root`` (a folder) is in: the first LMS layout that recognises it, else
    the plain folder-per-student layout."""
    return _lms(root, None) or get_layout("plain")


def _lms(root: Path, layout: str | None) -> Layout | None:
    """The LMS layout (not `plain`) whose export ``root`` is, if any."""
    if not root.is_dir():
        return None
    candidates = [get_layout(layout)] if layout else list(layouts().values())
    return next((c for c in candidates if c.name != "plain" and c.detect(root)), None)


def _unwrapped(root: Path, layout: str | None) -> tuple[Path, list[str]]:
    """``root``, or the one folder inside it holding an LMS export (a wrapper folder)."""
    notes = []
    for _ in range(3):
        inside = entries(root)
        if len(inside) != 1 or not inside[0].is_dir() or _lms(root, layout):
            break
        nested = _lms(inside[0], layout)
        if nested is None:
            break
        notes.append(f"`{inside[0].name}/` is a wrapper folder around the {nested.title} "
                     "export: its contents were graded")
        root = inside[0]
    return root, notes
