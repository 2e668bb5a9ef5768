"""Kits built once per test run, and the install step's wheelhouse for their environments."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.kit.builder import build_kit
from graders.pack import discover_packs, get_pack
from tests.venvs import fresh_venv

PACKS = sorted(discover_packs())  # every bundled pack builds a kit


@pytest.fixture(scope="session")
def kit_zip(run_cache):
    """``kit_zip(pack_id) -> Path``: the pack's kit, built once per test run."""

    def build(pack_id: str) -> Path:
        pack = get_pack(pack_id)
        return run_cache.once(f"kit-{pack_id}", pack, lambda folder: build_kit(pack, folder))

    return build


@pytest.fixture(scope="session")
def kit_python(tmp_path_factory: pytest.TempPathFactory):
    """``kit_python(pack_id, requirements) -> python``: a fresh virtual environment holding
    only that requirements.txt; kits whose requirements read the same share one (altnim,
    game_of_nim and pnt need the same four packages), built once per worker."""
    built: dict[str, Path] = {}

    def python(pack_id: str, requirements: Path) -> Path:
        wanted = requirements.read_text(encoding="utf-8")
        if wanted not in built:
            folder = tmp_path_factory.mktemp(f"venv-{pack_id}")
            built[wanted] = fresh_venv(folder, ["-r", str(requirements)])
        return built[wanted]

    return python
