"""What real students hand in beyond the named files: helper modules travel with the
submission, a program is found where the handout names no file, other files are listed."""

from __future__ import annotations

import zipfile
from pathlib import Path

from graders.extras import find_program, reads_argv
from graders.pack import Pack, get_pack
from graders.submissions import materialize, prepare

STONEHENGE = get_pack("stonehenge")
PNT = get_pack("pnt")
PROGRAM = (PNT.reference_dir / "pnt.py").read_text()


def with_entry_program(pack: Pack, name: str) -> Pack:
    """``pack`` declaring ``entry_program = name`` (whatever its own declaration says)."""
    submission = pack.declaration.submission.model_copy(update={"entry_program": name})
    declaration = pack.declaration.model_copy(update={"submission": submission})
    return Pack(declaration, pack.dir, pack.root)


def hand_in(folder: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def stonehenge_files(prefix: str = "") -> dict[str, str]:
    names = STONEHENGE.declaration.submission.files
    return {f"{prefix}{n}": (STONEHENGE.reference_dir / n).read_text() for n in names}


def test_helper_modules_travel_into_the_workspace_and_are_checked(tmp_path: Path):
    files = {
        **stonehenge_files("a2/"),
        "a2/board.py": "class Board:\n    pass\n",
        "a2/support/leyline.py": "LINES = 3\n",
        "a2/notes.pdf": "%PDF",
        "a2/game.py": "# my edited copy of a locked file\n",
        "elsewhere/stray.py": "x = 1\n",
    }
    sub = prepare(hand_in(tmp_path / "s", files), STONEHENGE, tmp_path / "work")
    assert sub.helpers == ["board.py", "support/leyline.py"]
    assert (sub.workspace / "board.py").read_text() == "class Board:\n    pass\n"
    assert (sub.workspace / "support" / "leyline.py").is_file()
    assert "board.py" in sub.files  # so rules and style see it
    assert (sub.workspace / "game.py").read_text() == STONEHENGE.template_text("game.py")
    assert sorted(sub.ignored) == ["a2/game.py", "a2/notes.pdf", "elsewhere/stray.py"]


def test_a_helper_module_never_replaces_a_required_file(tmp_path: Path):
    files = {**stonehenge_files(), "sub/strategy.py": "BROKEN = True\n"}
    sub = prepare(hand_in(tmp_path / "s", files), STONEHENGE, tmp_path / "work")
    assert sub.files["strategy.py"] == stonehenge_files()["strategy.py"]
    assert "sub/strategy.py" in sub.ignored and sub.helpers == []


def test_forbidden_extra_files_are_a_problem(tmp_path: Path):
    submission = STONEHENGE.declaration.submission.model_copy(update={"extra_files": "forbid"})
    pack = Pack(
        STONEHENGE.declaration.model_copy(update={"submission": submission}),
        STONEHENGE.dir, STONEHENGE.root,
    )
    files = {**stonehenge_files(), "board.py": "X = 1\n"}
    sub = prepare(hand_in(tmp_path / "s", files), pack, tmp_path / "work")
    assert [p.rule for p in sub.problems] == ["extra-files"]
    assert (sub.workspace / "board.py").is_file()  # still graded with it in place


def test_a_program_under_another_name_is_graded_as_the_program(tmp_path: Path):
    pack = with_entry_program(PNT, "pnt.py")
    game = "def best(n):\n    return n\n"
    main = "import sys\nfrom Game import best\nif __name__ == '__main__':\n    print(sys.argv)\n"
    sub = prepare(hand_in(tmp_path / "s", {"Main.py": main, "Game.py": game}), pack,
                  tmp_path / "work")
    assert sub.files["pnt.py"] == main and sub.aliases == {"pnt.py": "Main.py"}
    assert (sub.workspace / "pnt.py").read_text() == main
    assert (sub.workspace / "Main.py").read_text() == main  # its own name still imports
    assert (sub.workspace / "Game.py").read_text() == game and sub.helpers == ["Game.py"]
    [notice] = sub.problems
    assert notice.rule == "program-file" and "`Main.py`" in notice.message


def test_a_program_named_like_the_graded_name_is_no_wrong_file_name(tmp_path: Path):
    """The handout names no file: `PNT.py` is one name among others, graded as the program
    with the program's notice, never "the assignment asks for exactly that name"."""
    pack = with_entry_program(PNT, "pnt.py")
    sub = prepare(hand_in(tmp_path / "s", {"PNT.py": PROGRAM}), pack, tmp_path / "work")
    assert sub.files["pnt.py"] == PROGRAM and sub.aliases == {"pnt.py": "PNT.py"}
    [notice] = sub.problems
    assert notice.rule == "program-file" and "`pnt.py`" in notice.message
    assert "asks for" not in notice.message


def test_a_program_named_like_the_graded_name_needs_no_sys_argv(tmp_path: Path):
    """`PNT.py` reading its arguments with argparse (no `sys.argv` in its text) is still the
    program, and a `main.py` beside it is named as another program."""
    pack = with_entry_program(PNT, "pnt.py")
    program = "import argparse\nprint(argparse.ArgumentParser().parse_args())\n"
    main = "import sys\nprint(sys.argv)\n"
    sub = prepare(hand_in(tmp_path / "s", {"PNT.py": program, "main.py": main}), pack,
                  tmp_path / "work")
    assert sub.files["pnt.py"] == program and sub.aliases == {"pnt.py": "PNT.py"}
    [notice] = sub.problems
    assert notice.rule == "program-file" and "other programs found: `main.py`" in notice.message


def test_the_declared_name_wins_and_other_programs_are_named(tmp_path: Path):
    pack = with_entry_program(PNT, "pnt.py")
    old = "import sys\nprint(sys.argv[1])\n"
    sub = prepare(hand_in(tmp_path / "s", {"pnt.py": PROGRAM, "old.py": old}), pack,
                  tmp_path / "work")
    assert sub.files["pnt.py"] == PROGRAM and not sub.aliases and sub.problems == []


def test_a_zip_with_no_program_says_so(tmp_path: Path):
    pack = with_entry_program(PNT, "pnt.py")
    archive = tmp_path / "s.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("Game.py", "def best(n):\n    return n\n")
    sub = prepare(archive, pack, tmp_path / "work")
    [problem] = sub.problems
    assert problem.rule == "missing-file" and "sys.argv" in problem.message


def test_program_order_main_then_main_block_then_shallowest():
    reader = b"import sys\nprint(sys.argv)\n"
    in_main = b"import sys\nif __name__ == '__main__':\n    print(sys.argv)\n"
    assert find_program({"a.py": reader, "main.py": b"print(1)\n"}, []) == ("a.py", [])
    assert find_program({"a.py": reader, "Main.py": in_main}, []) == ("Main.py", ["a.py"])
    assert find_program({"a.py": reader, "b.py": in_main}, []) == ("b.py", ["a.py"])
    assert find_program({"x/a.py": reader, "b.py": reader}, []) == ("b.py", ["x/a.py"])
    assert find_program({"main.py": b"print(1)\n"}, []) == ("main.py", [])
    assert find_program({"lib.py": b"x = 1\n"}, []) == (None, [])


def test_a_helper_reading_argv_gives_way_to_the_file_that_imports_and_runs_it():
    helper = b"import sys\ndef args():\n    return sys.argv[1:]\n"
    program = b"from helper import args\nif __name__ == '__main__':\n    print(args())\n"
    top_call = b"import game\ngame.play()\n"
    game = b"import helper\ndef play():\n    print(helper.args())\n"
    assert find_program({"helper.py": helper, "Main.py": program}, []) == ("Main.py", [])
    assert find_program({"helper.py": helper, "run.py": program}, []) == ("run.py", [])
    # up a chain of imports, to the file that runs
    assert find_program({"helper.py": helper, "game.py": game, "go.py": top_call}, []) == (
        "go.py", [])
    # a test file of the student's is never the program; with no runner the reader stays
    tests = b"import unittest, helper\nunittest.main()\n"
    assert find_program({"helper.py": helper, "test_helper.py": tests}, []) == ("helper.py", [])
    # of the files that run it, the program: not another's import, a main block; any
    # test-like name is skipped; a chain through a file that leads nowhere is no dead end
    checks = b"import helper\nprint(helper.args())\n"
    assert find_program({"helper.py": helper, "run.py": program, "checks.py": checks,
                         "helper_tests.py": checks}, []) == ("run.py", [])
    plays = b"import helper\ndef play():\n    return helper.args()\n"
    assert find_program({"helper.py": helper, "a.py": plays, "b.py": plays,
                         "go.py": b"import b\nif __name__ == '__main__':\n    print(b.play())\n"},
                        []) == ("go.py", [])
    # a helper in a package, imported by its dotted name
    assert find_program({"pkg/helper.py": helper, "pkg/__init__.py": b"",
                         "run.py": program.replace(b"from helper", b"from pkg.helper")},
                        []) == ("run.py", [])
    # a script that runs through an `if`, or keeps a result of its own main(), is a program
    script = b"import sys\nn = int(sys.argv[1])\nif n > 0:\n    print(n)\n"
    kept = b"import sys\ndef main(a):\n    print(a)\nresult = main(sys.argv)\n"
    for own in (script, kept):
        assert find_program({"pnt.py": own, "demo.py": b"import pnt\nprint(1)\n"}, []) == (
            "pnt.py", [])
    # a reader that runs on its own is a program, whoever imports it
    runs = b"import sys\nif __name__ == '__main__':\n    print(sys.argv)\n"
    assert find_program({"prog.py": runs, "test_prog.py": b"import prog\nprog.x()\n",
                         "other.py": program.replace(b"helper", b"prog")}, []) == (
        "prog.py", [])


def test_argv_is_read_through_an_import_too():
    assert reads_argv(b"from sys import argv\nprint(argv[1])\n")
    assert not reads_argv(b"argv = []\n")
    assert reads_argv(b"import sys\nprint(sys.argv  # broken (\n")  # unparsable: by text


def test_a_submission_rebuilds_its_workspace_from_its_files_alone(tmp_path: Path):
    pack = with_entry_program(PNT, "pnt.py")
    folder = hand_in(tmp_path / "s", {"Main.py": PROGRAM, "common.py": "X = 1\n"})
    sub = prepare(folder, pack, tmp_path / "work")
    moved = materialize(sub, pack, tmp_path / "elsewhere")
    assert moved.workspace.parent == tmp_path / "elsewhere" and moved.files == sub.files
    built = sorted(p.name for p in moved.workspace.iterdir())
    assert built == sorted(p.name for p in sub.workspace.iterdir())
    assert (moved.workspace / "common.py").read_text() == "X = 1\n"


def test_a_program_whose_own_name_no_disk_takes_is_graded_under_the_graded_name(tmp_path: Path):
    """Its own name stays beside the alias only where a disk can hold it (a grader error
    before: "File name too long" writing the second copy)."""
    pack = with_entry_program(PNT, "pnt.py")
    archive = tmp_path / "s.zip"
    name = "pnt_" + "é" * 130 + ".py"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr(name, PROGRAM)
    sub = prepare(archive, pack, tmp_path / "work")
    assert sub.files["pnt.py"] == PROGRAM and sub.aliases == {"pnt.py": name}
    assert (sub.workspace / "pnt.py").read_text() == PROGRAM
