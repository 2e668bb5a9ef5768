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
def kit_python(run_cache):
    """``kit_python(pack_id, requirements) -> python``: a fresh virtual environment holding
    only that requirements.txt; kits whose requirements read the same share one (altnim,
    game_of_nim and pnt need the same four packages), built once per run for all workers
    (the pre-checks only read it)."""

    def python(pack_id: str, requirements: Path) -> Path:
        wanted = requirements.read_text(encoding="utf-8")

        def build(folder: Path) -> Path:
            listed = folder / "requirements.txt"
            listed.write_text(wanted, encoding="utf-8")
            return fresh_venv(folder / "venv", ["-r", str(listed)])

        return run_cache.keyed("kit-venv", wanted, build)

    return python
