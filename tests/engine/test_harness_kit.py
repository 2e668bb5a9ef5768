"""harness_kit: the child-side helpers every pack driver shares (run here in-process on small
workspaces; in the sandbox the same module sits beside the driver)."""

from __future__ import annotations

import ast
import builtins
import io
import math
import os
import sys
import textwrap
from pathlib import Path

import pytest

from graders.sandbox import harness_kit as kit


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A folder on sys.path and as working directory; its modules are forgotten after."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)

    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    yield write
    for name in set(sys.modules) - before:
        sys.modules.pop(name, None)


def test_plain_turns_student_values_into_json_data():
    class Token:
        def __index__(self):
            return 7

    value = (1, [2.5, math.inf], {"k": (None, True)}, Token(), object)
    assert kit.plain(value) == [1, [2.5, "inf"], {"k": [None, True]}, 7, repr(object)]


def test_error_text_names_the_students_line(workspace):
    workspace("game.py", "def move():\n    return 1 / 0\n")
    import game  # noqa: PLC0415 - the tmp workspace's module

    with pytest.raises(ZeroDivisionError) as caught:
        game.move()
    assert kit.error_text(caught.value) == "ZeroDivisionError: division by zero (game.py, line 2)"
    assert kit.safe(game.move) == {"error": kit.error_text(caught.value)}
    assert kit.safe(lambda: [1]) == "<list> [1]"


def test_error_text_names_a_students_helper_whatever_it_is_called(workspace):
    workspace("driver_utils.py", "def move():\n    return [][1]\n")
    import driver_utils  # noqa: PLC0415 - a student's helper with a harness-like name

    with pytest.raises(IndexError) as caught:
        driver_utils.move()
    assert kit.error_text(caught.value).endswith("(driver_utils.py, line 2)")


def test_typed_answers_echoes_and_runs_out():
    echo = io.StringIO()
    with kit.typed(["3"], echo=echo) as prompts:
        assert input("size? ") == "3"
        with pytest.raises(kit.OutOfInput):
            input("again? ")
    assert prompts == ["size? ", "again? "]
    assert echo.getvalue() == "size? 3\nagain? "
    with kit.typed([], then="q", limit=2):
        assert [input(), input()] == ["q", "q"]
        with pytest.raises(EOFError, match="more than 2 questions"):
            input("third")
    assert builtins.input.__module__ == "builtins"


def test_patched_restores_and_removes():
    class Target:
        kept = 1

    with kit.patched((Target, "kept", 2), (Target, "added", 3)):
        assert (Target.kept, Target.added) == (2, 3)
    assert Target.kept == 1 and not hasattr(Target, "added")


def test_import_student_explains_input_at_import(workspace):
    workspace("asks.py", "size = int(input('size? '))\n")
    with kit.typed([], limit=0), pytest.raises(RuntimeError, match="if __name__ == '__main__'"):
        kit.import_student("asks")


def test_a_module_that_failed_to_import_fails_again_without_running_again(workspace):
    workspace("deep.py", "open('runs.txt', 'a').write('run\\n')\nX = 1 / 0\n")
    raised = []
    for _ in range(3):
        with pytest.raises(ZeroDivisionError) as caught:
            kit.import_student("deep")
        raised.append(kit.error_text(caught.value))
    assert Path("runs.txt").read_text() == "run\n"
    assert raised[0] == raised[1] == raised[2] and "deep.py" in raised[0]
    assert kit.pinned("deep", "X")[1] == "deep.py could not be imported"
    workspace("deep.py", "X = 1\n")  # the file written again is imported anew
    assert kit.import_student("deep").X == 1


def test_imports_are_marked_and_a_module_that_died_importing_is_not_run(workspace, monkeypatch):
    """In a worker (child.mark_student_imports) each import is marked on the fd the parent
    reads; a module whose import ended an earlier process raises DiedImporting, which a
    driver's ``except Exception`` does not catch, and the module does not run."""
    read, write = os.pipe()
    monkeypatch.setattr(kit, "MARKS_FD", write)
    monkeypatch.setattr(kit, "DIED", frozenset({"gone"}))
    workspace("fine.py", "X = 1\n")
    workspace("gone.py", "open('runs.txt', 'a').write('run\\n')\n")
    assert kit.import_student("fine").X == 1
    with pytest.raises(kit.DiedImporting) as caught:
        kit.pinned("gone", "X")
    assert not isinstance(caught.value, Exception) and str(caught.value) == "gone"
    assert not Path("runs.txt").exists()
    os.close(write)
    with os.fdopen(read) as marks:
        assert marks.read() == "\ngraders-importing: fine\n\ngraders-imported: fine\n"


def test_a_module_that_asked_for_input_is_imported_again_when_input_is_typed(workspace):
    workspace("asks_once.py", "size = int(input('size? '))\n")
    with kit.typed([], limit=0), pytest.raises(RuntimeError, match="asks for input"):
        kit.import_student("asks_once")
    with kit.typed(["4"]):
        assert kit.import_student("asks_once").size == 4


def test_pinned_tells_missing_broken_and_found_apart(workspace):
    workspace("good.py", "class Game:\n    pass\n")
    workspace("broken.py", "import nowhere_to_be_found\n")
    assert kit.pinned("absent", "Game") == (None, "no absent.py was handed in", None)
    found, why, error = kit.pinned("broken", "Game")
    assert (found, why, type(error)) == (None, "broken.py could not be imported",
                                         ModuleNotFoundError)
    assert kit.pinned("good", "Other")[1] == "good.py defines no `Other`"
    assert kit.pinned("good", "Game")[0].__name__ == "Game"


def test_unwritten_sees_the_starter_stub(workspace):
    workspace("stubs.py", """
        class Stub:
            def move(self):
                raise NotImplementedError

        class Done:
            def move(self):
                return 1
        """)
    import stubs  # noqa: PLC0415

    assert kit.unwritten(stubs.Stub) and not kit.unwritten(stubs.Done)


MENU = """
from helpers import Board as Renamed
import strategies
from wild import *

playable = {"h": Renamed}


def main():
    playable["h"] = strategies.Other


if __name__ == "__main__":
    chosen = {"s": Starred}
    GameView(playable["h"], chosen["s"])
"""


def test_menu_entry_takes_the_last_binding_anywhere():
    tree = ast.parse(MENU)
    assert ast.unparse(kit.menu_entry(tree, "playable", "h")) == "strategies.Other"
    assert ast.unparse(kit.menu_entry(tree, "chosen", "s")) == "Starred"
    assert kit.menu_entry(tree, "playable", "x") is None
    assert kit.menus_passed(tree, "GameView", 1) == ["chosen"]


def test_import_entry_follows_each_kind_of_import(workspace):
    workspace("helpers.py", "class Board:\n    pass\n")
    workspace("strategies.py", "class Other:\n    pass\n")
    workspace("wild.py", "class Starred:\n    pass\n")
    workspace("menu.py", MENU)
    tree, why = kit.read_tree("menu.py")
    assert why == ""
    for source, name in (("Renamed", "Board"), ("strategies.Other", "Other"),
                         ("Starred", "Starred")):
        found, why = kit.import_entry(tree, ast.parse(source, mode="eval").body, "menu.py")
        assert (found.__name__, why) == (name, "")
    found, why = kit.import_entry(tree, ast.parse("Nowhere", mode="eval").body, "menu.py")
    assert found is None and "none of its `import *` modules defines" in why
    # Reading a whole menu entry (mapping and key, never running the file) is the entries
    # resolver's menu way now: tests/engine/test_entries_resolver.py::test_menu_read_never_run.
    assert kit.read_tree("absent.py") == (None, "no absent.py was handed in")


def test_class_homes_finds_the_pinned_name_else_the_subclasses_of_the_base_never_a_stub():
    stub = "class Game(GameState):\n    def f(self):\n        raise NotImplementedError\n"
    sources = {"a.py": "class Board(GameState):\n    pass\n", "b.py": stub,
               "c.py": "def (:\n",
               "d.py": "import game_state\n\n\nclass Other(game_state.GameState):\n    x = 1\n"}
    assert kit.class_homes(sources, "Game", "GameState") == [("a.py", "Board"),
                                                             ("d.py", "Other")]
    sources["e.py"] = "class Game:\n    x = 1\n"
    assert kit.class_homes(sources, "Game", "GameState") == [("e.py", "Game")]
    assert kit.class_homes({"a.py": sources["a.py"]}, "Game") == []
