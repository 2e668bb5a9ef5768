"""The declared ``[entries]`` table: typed and checked when the declaration loads (a bad one
fails naming the file, the key and the value), listed by ``grade explain ID``."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.commands.explain import describe_pack
from graders.declaration import describe_keys, load_declaration
from graders.errors import DeclarationError
from graders.pack import get_pack
from graders.pack_specs import HomeWay, MenuWay, PinnedWay

GOOD = """
id = "demo"
title = "Demo"
[submission]
files = ["shapes.py", "menu.py"]
[[criteria]]
id = "main"
title = "Main"
points = 10
tests = ["test_*"]
"""
ENTRIES = """
[entries.shape]
what = "the shape class"
kind = "class"
ways = [{ pinned = "shapes.Square", written = true },
        { menu = "menu.py", mapping = "shapes", key = "s", passed_to = "View", position = 0 },
        { home = "Square", base = "Shape", skip = ["base_shape.py"] }]
handout = "Implement class Square, a subclass of Shape."
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "assignment.toml"
    path.write_text(text)
    return path


def test_each_way_is_typed_by_how_it_reaches(tmp_path: Path):
    entry = load_declaration(write(tmp_path, GOOD + ENTRIES)).entries["shape"]
    assert [type(way) for way in entry.ways] == [PinnedWay, MenuWay, HomeWay]
    assert entry.kind == "class" and entry.ways[0].written and entry.ways[1].position == 0


@pytest.mark.parametrize(
    ("change", "key", "said"),
    [
        (('{ home = "Square",', '{ house = "Square",'), "entries.shape.ways.2",
         "a way must say how: `pinned`, `menu` or `home`"),
        (('pinned = "shapes.Square"', 'pinned = "Square"'), "entries.shape.ways.0.pinned.pinned",
         "'Square'"),
        (('menu = "menu.py"', 'menu = "menu"'), "entries.shape.ways.1.menu.menu", "'menu'"),
        (("position = 0", "position = -1"), "entries.shape.ways.1.menu.position", "-1"),
        (('kind = "class"', 'kind = "klass"'), "entries.shape.kind", "'klass'"),
        (('what = "the shape class"\n', ""), "entries.shape.what", "Field required"),
        (("written = true", "written = true, run = true"), "entries.shape.ways.0.pinned.run",
         "Extra inputs are not permitted"),
    ],
)
def test_a_bad_entry_names_file_key_and_value(tmp_path: Path, change, key, said):
    path = write(tmp_path, GOOD + ENTRIES.replace(*change))
    with pytest.raises(DeclarationError) as caught:
        load_declaration(path)
    message = str(caught.value)
    assert str(path) in message and f"key `{key}`" in message and said in message


def test_a_way_names_only_files_the_submission_hands_in_or_locks(tmp_path: Path):
    path = write(tmp_path, GOOD + ENTRIES.replace("shapes.Square", "shape.Square"))
    with pytest.raises(DeclarationError, match=r"entries.shape names files the submission "
                       r"neither hands in nor locks: \['shape.py'\]"):
        load_declaration(path)


def test_the_keys_are_documented():
    keys = "\n".join(describe_keys())
    for key in ("[entries.NAME]:", "entries.NAME.what:", "entries.NAME.ways:",
                "entries.NAME.ways[].pinned:", "entries.NAME.ways[].written:",
                "entries.NAME.ways[].menu:", "entries.NAME.ways[].passed_to:",
                "entries.NAME.ways[].home:", "entries.NAME.ways[].skip:"):
        assert key in keys


def test_explain_lists_a_packs_entries_and_their_ways():
    pack = get_pack("game_of_nim")
    lines = describe_pack(pack)
    start = lines.index("entries (what the driver asks for, and the ways to reach it, in order):")
    assert lines[start + 1:start + 4] == [
        "  game: the class the main program imports (`from game_of_nim import GameOfNim`)",
        "      pinned: game_of_nim.GameOfNim (base games.Game)",
        "      handout: The name of the class should be `GameOfNim`.",
    ]


RULE = """
[[rules]]
name = "entry-name"
files = ["menu.py"]
options = { entry = "shape" }
"""


def test_the_entry_name_rule_reads_its_menu_and_names_from_an_entry(tmp_path: Path):
    declaration = load_declaration(write(tmp_path, GOOD + ENTRIES + RULE))
    assert declaration.rule_options(declaration.rules[0]) == {
        "mapping": "shapes", "key": "s", "expected": ["Square"]}
    given = load_declaration(write(tmp_path, GOOD + ENTRIES + RULE.replace(
        '"shape" }', '"shape", expected = ["Square", "Box"] }')))
    assert given.rule_options(given.rules[0])["expected"] == ["Square", "Box"]


@pytest.mark.parametrize(("change", "said"), [
    (('"shape" }', '"circle" }'), "reads entries.circle, which is not declared"),
    (('"shape" }', '"shape", key = "s" }'), "`entry` gives the mapping and key"),
])
def test_an_entry_name_rule_reading_an_unusable_entry_fails_to_load(tmp_path, change, said):
    with pytest.raises(DeclarationError, match=said):
        load_declaration(write(tmp_path, GOOD + ENTRIES + RULE.replace(*change)))
    no_menu = ENTRIES.replace('        { menu = "menu.py", mapping = "shapes", key = "s", '
                              'passed_to = "View", position = 0 },\n', "")
    with pytest.raises(DeclarationError, match="entries.shape, which declares no menu way"):
        load_declaration(write(tmp_path, GOOD + no_menu + RULE))


def test_an_entry_with_a_pinned_and_a_home_way_pins_its_class_for_the_intake(tmp_path: Path):
    declared = GOOD.replace('files = ["shapes.py", "menu.py"]', 'files = ["shapes.py", '
                            '"menu.py"]\npinned_classes = { "menu.py" = { name = "Menu" } }')
    pinned = load_declaration(write(tmp_path, declared + ENTRIES)).pinned_classes
    assert {file: (c.name, c.base) for file, c in pinned.items()} == {
        "shapes.py": ("Square", "Shape"), "menu.py": ("Menu", "")}


def test_the_bundled_packs_read_from_their_entries_what_they_declared_twice():
    # What tippy and stonehenge declared in their rules and pinned_classes before those read
    # the [entries] tables: the same, so no sample's marks can move.
    tippy, stonehenge = get_pack("tippy").declaration, get_pack("stonehenge").declaration
    assert [tippy.rule_options(r) for r in tippy.rules if r.name == "entry-name"] == [
        {"mapping": "game_state", "key": "t", "expected": ["TippyGameState"]},
        {"mapping": "strategy", "key": "m", "expected": ["StrategyMinimax"]}]
    assert [stonehenge.rule_options(r) for r in stonehenge.rules if r.name == "entry-name"] == [
        {"mapping": "playable_games", "key": "h", "expected": ["StonehengeGame"]},
        {"mapping": "usable_strategies", "key": "mr", "expected": ["recursive_minimax_strategy"]},
        {"mapping": "usable_strategies", "key": "mi", "expected": ["iterative_minimax_strategy"]}]
    assert {file: (c.name, c.base) for file, c in tippy.pinned_classes.items()} == {
        "tippy_game_state.py": ("TippyGameState", "GameState"),
        "strategy_minimax.py": ("StrategyMinimax", "Strategy"),
        "tippy_move.py": ("TippyMove", "Move")}
