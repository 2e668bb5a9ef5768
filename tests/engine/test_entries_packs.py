"""Every pack's declared ``[entries]`` reach the reference solution's work (a pinned name
mistyped in a declaration would otherwise fail every student as their own error)."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

from graders.pack import discover_packs
from graders.sandbox.harness_entries import Entries

PACKS = {pack_id: pack for pack_id, pack in discover_packs().items() if pack.declaration.entries}


@pytest.mark.parametrize("pack_id", sorted(PACKS))
def test_each_entry_reaches_the_reference(pack_id: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch):
    pack = PACKS[pack_id]
    workspace = pack.build_reference_workspace(tmp_path / "reference").resolve()
    names = {path.stem for path in workspace.glob("*.py")}
    saved = {name: sys.modules.pop(name) for name in names if name in sys.modules}
    monkeypatch.chdir(workspace)
    monkeypatch.syspath_prepend(str(workspace))
    try:
        entries = Entries.beside(str(pack.driver))
        homes = {name: Path(inspect.getfile(entries(name))).resolve().parent
                 for name in pack.declaration.entries}
    finally:
        for name in names:
            sys.modules.pop(name, None)
        sys.modules.update(saved)
    assert homes == {name: workspace for name in pack.declaration.entries}
