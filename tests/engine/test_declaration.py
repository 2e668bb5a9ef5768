"""Assignment declarations: a bad one fails naming the file, the key and the value."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.declaration import describe_keys, load_declaration
from graders.errors import DeclarationError
from graders.pack import PACKS_DIR, discover_packs, load_pack

GOOD = """
id = "demo"
title = "Demo"
[submission]
files = ["a.py"]
[[rules]]
name = "class-definition"
deduction = 5
[[criteria]]
id = "main"
title = "Main"
points = 10
tests = ["test_*"]
"""


def write(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "demo"
    folder.mkdir(exist_ok=True)
    path = folder / "assignment.toml"
    path.write_text(text)
    return path


def test_a_good_declaration_loads(tmp_path: Path):
    declaration = load_declaration(write(tmp_path, GOOD))
    assert declaration.max_points == 10
    assert declaration.limits.to_limits().wall_seconds == 10


@pytest.mark.parametrize(
    ("change", "key", "value"),
    [
        (("points = 10", "points = -3"), "criteria.0.points", "-3"),
        (("deduction = 5", 'deduction = "lots"'), "rules.0.deduction", "'lots'"),
        (('files = ["a.py"]', "files = []"), "submission.files", "[]"),
        (('title = "Main"', 'title = "Main"\nweight = 2'), "criteria.0.weight", "2"),
    ],
)
def test_bad_values_name_file_key_and_value(tmp_path: Path, change, key, value):
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(DeclarationError) as caught:
        load_declaration(path)
    message = str(caught.value)
    assert str(path) in message and f"`{key}`" in message and value in message


def test_unknown_rule_lists_the_known_ones(tmp_path: Path):
    path = write(tmp_path, GOOD.replace("class-definition", "no-such-rule"))
    with pytest.raises(DeclarationError, match="no-such-rule.*known rules: .*class-definition"):
        load_declaration(path)


def test_rule_options_are_validated(tmp_path: Path):
    path = write(tmp_path, GOOD.replace("deduction = 5", "deduction = 5\noptions = { bogus = 1 }"))
    with pytest.raises(DeclarationError, match="bogus"):
        load_declaration(path)


def test_broken_toml_is_reported_with_the_file(tmp_path: Path):
    path = write(tmp_path, GOOD + "\n[[criteria]\n")
    with pytest.raises(DeclarationError, match="not valid TOML"):
        load_declaration(path)


def test_pack_id_must_match_its_folder(tmp_path: Path):
    write(tmp_path, GOOD.replace('id = "demo"', 'id = "other"'))
    with pytest.raises(DeclarationError, match="must match the folder name 'demo'"):
        load_pack(tmp_path / "demo")


def test_every_key_documents_itself():
    lines = describe_keys()
    assert any(line.startswith("limits.wall_seconds: ") for line in lines)
    assert all(
        ": " in line or line.startswith("[") or line in {"rules", "criteria"} for line in lines
    )


def test_packs_are_discovered_not_listed():
    found = discover_packs()
    on_disk = {path.parent.name for path in PACKS_DIR.glob("*/assignment.toml")}
    assert set(found) == on_disk and "altnim" in found


GOLDEN = """
[[golden]]
name = "games.txt"
public = true
joiner = "\\n"
runs = [{ argv = ["python3", "play.py"], stdin = "3\\n" },
        { argv = ["python3", "play.py"], stdin = "4\\n", inputs = ["hidden.txt"] }]
"""


def test_golden_files_are_declared_as_data(tmp_path: Path):
    from graders.golden import GoldenRun, golden_file

    pack = load_pack(write(tmp_path, GOOD + GOLDEN).parent, tmp_path)
    games = golden_file(pack, "games.txt")
    assert games.public and games.joiner == "\n"
    assert games.runs == [GoldenRun(["python3", "play.py"], "3\n"),
                          GoldenRun(["python3", "play.py"], "4\n", ("hidden.txt",))]


def test_a_golden_file_is_declared_once(tmp_path: Path):
    with pytest.raises(DeclarationError, match="golden file names must be unique"):
        load_declaration(write(tmp_path, GOOD + GOLDEN + GOLDEN))


SETTING = """
[settings.rule]
type = "text"
value = "misere"
choices = ["misere", "normal"]
description = "The winning rule."
[settings.seconds]
type = "number"
value = 15
minimum = 1
maximum = 60
description = "Seconds for a game."
"""


def test_settings_are_typed_and_their_values_reach_the_pack(tmp_path: Path):
    write(tmp_path, GOOD + SETTING)
    pack = load_pack(tmp_path / "demo", tmp_path)
    assert pack.settings == {"rule": "misere", "seconds": 15}


@pytest.mark.parametrize(
    ("change", "key", "said"),
    [
        (('value = "misere"', 'value = "mixed"'), "settings.rule", "'mixed' is not one of"),
        (("value = 15", "value = 99"), "settings.seconds", "99 is above the maximum 60"),
        (("value = 15", 'value = "fast"'), "settings.seconds", "'fast' is not of type number"),
        (('type = "text"', 'type = "flag"'), "settings.rule", "'misere' is not of type flag"),
        (('description = "Seconds for a game."\n', ""), "settings.seconds.description",
         "Field required"),
    ],
)
def test_a_bad_setting_names_file_key_and_value(tmp_path: Path, change, key, said):
    path = write(tmp_path, GOOD + SETTING.replace(*change))
    with pytest.raises(DeclarationError) as caught:
        load_declaration(path)
    message = str(caught.value)
    assert str(path) in message and f"`{key}`" in message and said in message


def test_per_pack_choices_are_keys_of_the_declaration(tmp_path: Path):
    declaration = load_declaration(write(tmp_path, GOOD + """
[selfcheck]
samples = 10
[kit]
shipped = { oracle = ["tokens"] }
[python_ta]
config = "pyta.txt"
files = ["a.py"]
"""))
    assert declaration.selfcheck.samples == 10
    assert declaration.kit.shipped == {"oracle": ["tokens"]}
    assert declaration.python_ta.files == ["a.py"]
    keys = "\n".join(describe_keys())
    for key in ("selfcheck.samples:", "kit.shipped:", "python_ta.config:", "[settings.NAME]:",
                "settings.NAME.choices:"):
        assert key in keys
