"""The one resolver of a pack's declared entries (graders/sandbox/harness_entries.py), run
in-process as a driver runs it in the sandbox: each example workspace in entries_examples/ is
named after the way its class is reached (or why it is not), over the starter's files."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.sandbox import harness_entries
from graders.sandbox.harness_entries import Entries, EntryNotFound

EXAMPLES = Path(__file__).with_name("entries_examples")
MODULES = ("base_shape", "shapes", "boxes", "menu", "tiles", "my_square", "figures", "notes")
HANDOUT = "Implement class Square, a subclass of Shape."
PINNED = {"pinned": "shapes.Square", "written": True}
MENU = {"menu": "menu.py", "mapping": "shapes", "key": "s", "passed_to": "View", "position": 0}
HOME = {"home": "Square", "base": "Shape", "skip": ["base_shape.py", "menu.py"]}
TABLE = {"shape": {"what": "the shape class", "kind": "class", "handout": HANDOUT,
                   "ways": [PINNED, MENU, HOME]}}


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """``workspace(example)``: the starter's files, the example's over them, as the working
    folder and first on sys.path; the modules they define are forgotten afterwards."""

    def make(example: str) -> Path:
        folder = tmp_path / example
        shutil.copytree(EXAMPLES / "starter", folder)
        shutil.copytree(EXAMPLES / example, folder, dirs_exist_ok=True)
        monkeypatch.chdir(folder)
        monkeypatch.syspath_prepend(str(folder))
        return folder

    for name in MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield make
    for name in MODULES:
        sys.modules.pop(name, None)


def reached(table: dict = TABLE, name: str = "shape") -> str:
    found = Entries(table)(name)
    return f"{found.__module__}.{found.__name__}"


def test_pinned(workspace):
    workspace("pinned")
    assert reached() == "shapes.Square"


def test_pinned_stub_menu_elsewhere(workspace):
    # The starter's unwritten stub is passed over: the menu names the student's class.
    workspace("pinned_stub_menu_elsewhere")
    assert reached() == "boxes.Box"


def test_the_stub_is_the_last_resort(workspace):
    workspace("reached_no_way")
    assert reached({"shape": {**TABLE["shape"], "ways": [PINNED, MENU]}}) == "shapes.Square"


def test_menu_read_never_run(workspace):
    workspace("menu_read_never_run")
    assert reached() == "tiles.Tile"


def test_menu_run_built_at_import(workspace):
    workspace("menu_run_built_at_import")
    run = {"shape": {**TABLE["shape"], "ways": [{**MENU, "run": True}]}}
    assert reached(run) == "tiles.Tile"
    with pytest.raises(EntryNotFound, match=r"no entry 's' in its `shapes` menu"):
        reached({"shape": {**TABLE["shape"], "ways": [MENU]}})


def test_menu_passed_to_the_view(workspace):
    workspace("menu_passed_to_the_view")
    assert reached() == "tiles.Tile"
    assert Entries(TABLE).by("shape", "menu").__name__ == "Tile"


def test_home_named_in_another_module(workspace):
    workspace("home_named_in_another_module")
    assert reached() == "my_square.Square"


def test_home_one_subclass_of_the_base(workspace):
    workspace("home_one_subclass_of_the_base")
    assert reached() == "figures.Quad"


def test_reached_no_way_names_every_way_tried_and_the_handout(workspace):
    workspace("home_several_subclasses")
    table = {"shape": {**TABLE["shape"], "ways": [{"pinned": "shapes.Circle"}, MENU, HOME]}}
    with pytest.raises(EntryNotFound) as caught:
        reached(table)
    assert str(caught.value) == (
        "the shape class was not found: looked for `Circle` in shapes.py (shapes.py defines "
        "no `Circle`), then for `shapes['s']` in menu.py's menu (no menu.py was handed in), "
        "then in every module handed in (several: `Quad` in figures.py, `Disc` in "
        f"figures.py): the handout says '{HANDOUT}'")


def test_a_missing_name_lists_the_modules_own_subclasses_of_the_base(workspace):
    workspace("home_several_subclasses")
    table = {"shape": {"what": "the shape class",
                       "ways": [{"pinned": "figures.Square", "base": "base_shape.Shape"}]}}
    with pytest.raises(EntryNotFound, match=r"figures.py defines no `Square`; it has Disc, Quad\)"):
        reached(table)


def test_student_import_error_is_theirs_to_see(workspace):
    workspace("student_import_error")
    with pytest.raises(ModuleNotFoundError, match="nowhere"):
        reached()


def test_not_a_class_is_passed_over_with_a_reason(workspace):
    workspace("not_a_class")
    with pytest.raises(EntryNotFound, match=r"shapes.py \(it is not a class: function\)"):
        reached()
    anything = {"shape": {**TABLE["shape"], "kind": "any"}}
    assert Entries(anything)("shape").__name__ == "Square"


def test_each_entry_is_resolved_once(workspace):
    workspace("pinned")
    entries = Entries(TABLE)
    first = entries("shape")
    (Path("shapes.py")).unlink()
    assert entries("shape") is first


def test_an_entry_the_pack_does_not_declare_is_the_graders_mistake(tmp_path: Path):
    entries = Entries.beside(str(tmp_path / "driver.py"))  # nothing declared beside it
    with pytest.raises(KeyError, match=r"does not declare \(\[entries.shape\]\)"):
        entries("shape")


def test_a_driver_reads_the_table_beside_it(tmp_path: Path):
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "assignment.toml").write_text(
        'id = "pack"\n[entries.shape]\nwhat = "the shape class"\n'
        'ways = [{ pinned = "shapes.Square" }]\n')
    assert Entries.beside(str(pack / "driver.py")).table == {
        "shape": {"what": "the shape class", "ways": [{"pinned": "shapes.Square"}]}}
    harness = tmp_path / "harness"  # the sandbox's copy: entries.json beside the driver
    harness.mkdir()
    (harness / harness_entries.TABLE_FILE).write_text(json.dumps(TABLE))
    assert Entries.beside(str(harness / "grader_driver.py")).table == TABLE
