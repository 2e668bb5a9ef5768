"""Kits built once per session, and a wheelhouse of their public packages."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from graders.kit.builder import build_kit
from graders.pack import discover_packs, get_pack

PACKS = sorted(discover_packs())  # every bundled pack builds a kit
_BUILT: dict[str, Path] = {}


@pytest.fixture(scope="session")
def kit_zip(tmp_path_factory: pytest.TempPathFactory):
    """``kit_zip(pack_id) -> Path``: the pack's kit, built once per session."""

    def build(pack_id: str) -> Path:
        if pack_id not in _BUILT:
            _BUILT[pack_id] = build_kit(get_pack(pack_id), tmp_path_factory.mktemp("kits"))
        return _BUILT[pack_id]

    return build


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory, kit_zip):
    """``wheelhouse(pack_id) -> Path``: one folder of wheels for the kits' requirements,
    each downloaded once per session with pip (from the package index)."""
    folder = tmp_path_factory.mktemp("wheelhouse")

    def wheels(pack_id: str) -> Path:
        with zipfile.ZipFile(kit_zip(pack_id)) as archive:
            wanted = archive.read(f"{pack_id}-kit/requirements.txt").decode().split()
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:",
                        "-d", str(folder), *wanted], check=True, timeout=600,
                       capture_output=True)
        return folder

    return wheels


@pytest.fixture(scope="session")
def kit_python(tmp_path_factory: pytest.TempPathFactory, wheelhouse):
    """``kit_python(pack_id, requirements) -> python``: a fresh virtual environment holding
    only that requirements.txt; kits whose requirements read the same share one (altnim,
    game_of_nim and pnt need the same four packages), built once per session."""
    built: dict[str, Path] = {}

    def python(pack_id: str, requirements: Path) -> Path:
        wanted = requirements.read_text(encoding="utf-8")
        if wanted not in built:
            folder = tmp_path_factory.mktemp(f"venv-{pack_id}")
            built[wanted] = fresh_venv(folder, requirements, wheelhouse(pack_id))
        return built[wanted]

    return python


def fresh_venv(folder: Path, requirements: Path, wheelhouse: Path) -> Path:
    """A new virtual environment holding only ``requirements`` (and pip); its python."""
    venv.EnvBuilder(with_pip=True, clear=True).create(folder)
    python = folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-index", "--find-links",
                    str(wheelhouse), "-r", str(requirements)], check=True, timeout=600,
                   capture_output=True)
    return python
