"""Collecting submissions: names, encodings, zips and links, never losing a student."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from graders.pack import discover_packs, get_pack
from graders.submissions import detect_assignment, find_submissions, prepare, slugify

PACK = get_pack("altnim")
GOOD = (PACK.reference_dir / "myAltNimFunctions.py").read_text()


def student(tmp_path: Path, files: dict[str, bytes | str], name: str = "s1") -> Path:
    folder = tmp_path / name
    for relative, data in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return folder


def problems(submission) -> set[str]:
    return {problem.rule for problem in submission.problems}


@pytest.mark.parametrize(
    "wrong",
    [
        "myAltNimFunctions.template",
        "MyAltNimFunctions.py",
        "myaltnimfunctions.PY",
        "myAltNimFunctions (1).py",
    ],
)
def test_a_near_miss_name_is_graded_with_a_file_name_problem(tmp_path: Path, wrong: str):
    sub = prepare(student(tmp_path, {wrong: GOOD}), PACK, tmp_path / "work")
    assert sub.files["myAltNimFunctions.py"] == GOOD
    assert problems(sub) == {"file-name"}
    assert wrong in sub.problems[0].message


def test_a_missing_file_is_a_problem_not_a_crash(tmp_path: Path):
    sub = prepare(student(tmp_path, {"notes.txt": "hello"}), PACK, tmp_path / "work")
    assert sub.files == {} and problems(sub) == {"missing-file"}
    assert (sub.workspace / "testAltNim.py").is_file()


def test_files_in_a_subfolder_are_found(tmp_path: Path):
    sub = prepare(
        student(tmp_path, {"A2/code/myAltNimFunctions.py": GOOD}), PACK, tmp_path / "work"
    )
    assert problems(sub) == set() and "myAltNimFunctions.py" in sub.files


def test_non_utf8_is_decoded_and_flagged(tmp_path: Path):
    data = GOOD.replace("Course Instructor", "Zoë Ménard       ").encode("cp1252")
    sub = prepare(student(tmp_path, {"myAltNimFunctions.py": data}), PACK, tmp_path / "work")
    assert "Zoë Ménard" in sub.files["myAltNimFunctions.py"]
    assert problems(sub) == {"source-encoding"}
    # where an editor shows it: the line, and the byte (it said "byte 453")
    line = GOOD[:GOOD.index("Course Instructor")].count("\n") + 1
    assert f"is not UTF-8 (line {line}, the byte 0xeb)" in sub.problems[0].message


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_a_file_saved_as_notepads_unicode_is_read_as_such_and_flagged(tmp_path: Path, codec):
    """UTF-16 or UTF-32 behind its byte-order mark: the student's text, with a notice that says
    which encoding and what to do (a Windows-1252 reading would be NULs and a syntax error)."""
    bom = {"utf-16-be": b"\xfe\xff"}.get(codec, b"")
    text = GOOD.replace("Course Instructor", "Zoë Ménard       ")
    sub = prepare(student(tmp_path, {"myAltNimFunctions.py": bom + text.encode(codec)}), PACK,
                  tmp_path / "work")
    assert sub.files["myAltNimFunctions.py"] == text
    assert problems(sub) == {"source-encoding"}
    (notice,) = sub.problems
    assert codec[:6].upper() in notice.message and "save it as UTF-8" in notice.message


def test_an_empty_file_is_flagged(tmp_path: Path):
    sub = prepare(student(tmp_path, {"myAltNimFunctions.py": ""}), PACK, tmp_path / "work")
    assert problems(sub) == {"empty-file"}


def test_locked_files_always_come_from_the_starter_kit(tmp_path: Path):
    sub = prepare(
        student(
            tmp_path, {"myAltNimFunctions.py": GOOD, "testAltNim.py": "print('all tests pass')"}
        ),
        PACK,
        tmp_path / "work",
    )
    assert (sub.workspace / "testAltNim.py").read_text() == PACK.template_text("testAltNim.py")


def test_symlinks_are_never_followed(tmp_path: Path):
    folder = student(tmp_path, {"myAltNimFunctions.py": GOOD})
    os.symlink(PACK.reference_dir / "myAltNimFunctions.py", folder / "stolen.py")
    sub = prepare(folder, PACK, tmp_path / "work")
    assert problems(sub) == {"symlink"}
    assert not (sub.workspace / "stolen.py").exists()


def test_zip_slip_and_nested_folders(tmp_path: Path):
    archive = tmp_path / "alice.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("A2/myAltNimFunctions.py", GOOD)
        zipped.writestr("../../escape.py", "print('out')")
        zipped.writestr("/etc/evil.py", "print('out')")
    sub = prepare(archive, PACK, tmp_path / "work")
    assert sub.id == "alice" and "myAltNimFunctions.py" in sub.files
    assert problems(sub) == {"zip"}
    assert not (tmp_path / "escape.py").exists()


def test_a_zip_bomb_is_cut_short(tmp_path: Path):
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        for index in range(12):
            zipped.writestr(f"pad{index}.txt", b"0" * (2 * 1024 * 1024))
        zipped.writestr("myAltNimFunctions.py", GOOD)
    sub = prepare(archive, PACK, tmp_path / "work")
    assert "zip" in problems(sub)


def test_a_broken_zip_is_a_problem(tmp_path: Path):
    archive = tmp_path / "broken.zip"
    archive.write_bytes(b"PK\x03\x04 not really")
    sub = prepare(archive, PACK, tmp_path / "work")
    assert problems(sub) == {"zip", "missing-file"}


@pytest.mark.parametrize("name", ["-rf", "Zoë Ménard", "a b/../c", "<script>"])
def test_odd_student_names_get_safe_distinct_slugs(name: str):
    slug = slugify(name)
    assert "/" not in slug and not slug.startswith(("-", ".")) and slug.isascii()
    assert slugify(name) == slug and slugify(name + "x") != slug


def test_assignment_detection(tmp_path: Path):
    folder = student(tmp_path, {"myAltNimFunctions.py": GOOD})
    assert detect_assignment([folder], discover_packs()) == "altnim"
    assert detect_assignment([student(tmp_path, {"x.py": ""}, "s2")], discover_packs()) is None


def test_each_folder_and_zip_is_one_student(tmp_path: Path):
    student(tmp_path / "batch", {"myAltNimFunctions.py": GOOD}, "bob")
    (tmp_path / "batch" / "carol.zip").write_bytes(b"")
    (tmp_path / "batch" / "notes.txt").write_text("not a submission")
    assert [p.name for p in find_submissions(tmp_path / "batch")] == ["bob", "carol.zip"]


def test_an_empty_folder_is_no_submission_not_a_student(tmp_path: Path):
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / ".DS_Store").write_text("")
    assert find_submissions(tmp_path / "class") == []
    one = student(tmp_path, {"myAltNimFunctions.py": GOOD}, "alone")
    assert find_submissions(one) == [one]


def test_a_students_own_time_file_is_ignored_and_named(tmp_path: Path):
    folder = student(tmp_path, {"myAltNimFunctions.py": GOOD, "submission_meta.json":
                                '{"submitted_at": "2015-03-05T21:00:00-05:00"}'})
    submission = prepare(folder, PACK, tmp_path / "work")
    assert submission.submitted_at is None
    assert submission.ignored == ["submission_meta.json"] and "ignored-file" in problems(submission)


def test_the_intake_gives_the_id_notes_and_time(tmp_path: Path):
    from datetime import UTC, datetime

    folder = student(tmp_path, {"myAltNimFunctions.py": GOOD}, "Doe Jane_12345_x")
    when = datetime(2024, 3, 5, 23, 0, tzinfo=UTC)
    submission = prepare(folder, PACK, tmp_path / "work", student="Jane Doe (12345)",
                         notes=["graded the online text"], submitted_at=when)
    assert (submission.id, submission.submitted_at) == ("Jane Doe (12345)", when)
    assert [p.message for p in submission.problems if p.rule == "intake"] == [
        "graded the online text"]


TIPPY = get_pack("tippy")
TIPPY_FILES = {name: (TIPPY.reference_dir / name).read_text()
               for name in TIPPY.declaration.submission.files}


def test_a_pinned_class_in_a_module_of_another_name_is_graded_as_the_missing_file(
        tmp_path: Path):
    files = dict(TIPPY_FILES)
    files["tippy_square_state.py"] = files.pop("tippy_game_state.py")
    sub = prepare(student(tmp_path, files), TIPPY, tmp_path / "w")
    assert problems(sub) == {"file-name"}
    assert sub.aliases == {"tippy_game_state.py": "tippy_square_state.py"}
    assert sub.files["tippy_game_state.py"] == files["tippy_square_state.py"]
    assert "tippy_square_state.py" not in sub.helpers
    assert (sub.workspace / "tippy_square_state.py").is_file()  # its importers still work


def test_the_unique_subclass_of_the_pinned_base_stands_in_and_two_candidates_do_not(
        tmp_path: Path):
    files = dict(TIPPY_FILES)
    renamed = files.pop("tippy_game_state.py").replace("class TippyGameState(", "class Board(")
    files["board.py"] = renamed
    sub = prepare(student(tmp_path, files), TIPPY, tmp_path / "w")
    assert sub.aliases == {"tippy_game_state.py": "board.py"}
    files["board2.py"] = renamed
    sub = prepare(student(tmp_path, files, "s2"), TIPPY, tmp_path / "w2")
    assert "missing-file" in problems(sub) and "tippy_game_state.py" not in sub.files


def test_without_a_pinned_class_a_missing_file_stays_missing(tmp_path: Path):
    files = {"helper.py": GOOD}
    sub = prepare(student(tmp_path, files), PACK, tmp_path / "w")
    assert problems(sub) == {"missing-file"}


def test_two_different_copies_of_a_file_are_graded_nearest_the_top_and_named(tmp_path: Path):
    """The file at the top and an older copy in a sub-folder (or a zip uploaded beside it): the
    one nearest the top is graded, and a notice names the other for the TA; an identical copy
    says nothing."""
    folder = student(tmp_path, {"myAltNimFunctions.py": GOOD, "old/myAltNimFunctions.py":
                                GOOD + "# old\n", "same/myAltNimFunctions.py": GOOD})
    sub = prepare(folder, PACK, tmp_path / "work")
    assert sub.files["myAltNimFunctions.py"] == GOOD
    (notice,) = sub.problems
    assert notice.rule == "intake" and "`old/myAltNimFunctions.py`" in notice.message
    assert "same/" not in notice.message


def test_nearest_the_top_counts_folders_not_letters(tmp_path: Path):
    """``submission/x.py`` is nearer the top than ``a/b/x.py``, though its path is longer."""
    folder = student(tmp_path, {"submission/myAltNimFunctions.py": GOOD,
                                "a/b/myAltNimFunctions.py": GOOD + "# old\n"})
    sub = prepare(folder, PACK, tmp_path / "work")
    assert sub.files["myAltNimFunctions.py"] == GOOD
    assert "`a/b/myAltNimFunctions.py`" in sub.problems[0].message


@pytest.mark.parametrize(("head", "kind"), [
    (b"\n<!DOCTYPE html>\n<html lang='en'>", "web page (HTML), as a browser saves"),
    (b"\xef\xbb\xbf<!DOCTYPE html>", "web page (HTML), as a browser saves"),  # Notepad's BOM
    (b"{\\rtf1\\ansi\\ansicpg1252\\cocoartf2709", "Rich Text (RTF) document"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3", "PDF document"),
    (b"PK\x03\x04\x14\x00\x06\x00", "zip archive (a Word .docx is one)"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "PNG picture"),
])
def test_a_document_under_a_py_name_is_named_for_what_it_is(tmp_path: Path, head, kind):
    """A GitHub page saved with "Save link as", TextEdit's RTF, a PDF, a .docx, a screenshot:
    the notice says what the file is and what to hand in (not "save it as UTF-8")."""
    sub = prepare(student(tmp_path, {"myAltNimFunctions.py": head + b"\ndef f():\n"}), PACK,
                  tmp_path / "work")
    assert problems(sub) == {"not-source"}
    assert kind in sub.problems[0].message and "Hand in the .py file itself" in \
        sub.problems[0].message


def _zipped(path: Path, name: str, text: str, stamp: tuple[int, int, int, int, int, int]) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo(name, date_time=stamp), text)


def test_of_two_copies_as_near_the_top_the_one_changed_last_is_graded(tmp_path: Path):
    """A student uploads A2_v2.zip beside A2_v1.zip: the file their archives record as changed
    last is graded, whatever the names' order, and the notice names the other. Times on the
    grader's disk are not the student's (an export is unpacked when graded): two folders
    give the first by name, however their files were touched, and so does a zip beside one."""
    folder = tmp_path / "s1"
    folder.mkdir()
    _zipped(folder / "A2_v1.zip", "myAltNimFunctions.py", GOOD + "# draft\n",
            (2024, 10, 20, 9, 0, 0))
    _zipped(folder / "A2_v2.zip", "myAltNimFunctions.py", GOOD, (2024, 10, 22, 23, 50, 0))
    sub = prepare(folder, PACK, tmp_path / "work")
    assert sub.files["myAltNimFunctions.py"] == GOOD
    (notice,) = sub.problems
    assert "`A2_v1/myAltNimFunctions.py`" in notice.message and "changed last" in notice.message

    folders = student(tmp_path, {"v1/myAltNimFunctions.py": GOOD + "# draft\n",
                                 "v2/myAltNimFunctions.py": GOOD}, name="s2")
    os.utime(folders / "v1" / "myAltNimFunctions.py", (1_000_000_000, 1_000_000_000))
    os.utime(folders / "v2" / "myAltNimFunctions.py", (2_000_000_000, 2_000_000_000))
    assert prepare(folders, PACK, tmp_path / "work2").files["myAltNimFunctions.py"] == \
        GOOD + "# draft\n"
    _zipped(folders / "v0.zip", "myAltNimFunctions.py", GOOD + "# zipped\n",
            (2030, 1, 1, 0, 0, 0))
    assert prepare(folders, PACK, tmp_path / "work3").files["myAltNimFunctions.py"] == \
        GOOD + "# zipped\n"  # v0/ comes first by name: the zip's stamp is not compared


def test_compiled_bytecode_for_a_missing_file_is_named(tmp_path: Path):
    """Only ``myAltNimFunctions.pyc`` handed in (Windows hides the extension that tells it
    from the source): still missing, and the message says what was handed in instead."""
    sub = prepare(student(tmp_path, {"myAltNimFunctions.pyc": b"\xa7\r\r\n\x00\x00"}), PACK,
                  tmp_path / "work")
    (missing,) = sub.problems
    assert missing.rule == "missing-file"
    assert "`myAltNimFunctions.pyc` was handed in, which is compiled bytecode" in missing.message


@pytest.mark.parametrize("helper", [
    "é" * 130 + ".py",  # 264 bytes: a file name no Linux file system takes
    "/".join(["deep" * 60] * 20) + "/helper.py",  # every folder name fits, the path does not
])
def test_a_name_no_file_system_takes_is_the_students_problem(tmp_path: Path, helper: str):
    """A zip may name what no disk can hold: that file is left out and said, and the rest is
    graded (writing the workspace raised "File name too long": a grader error, no mark)."""
    archive = tmp_path / "s1.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("myAltNimFunctions.py", GOOD)
        zipped.writestr(helper, "X = 1\n")
    sub = prepare(archive, PACK, tmp_path / "work")
    assert sub.files == {"myAltNimFunctions.py": GOOD} and helper in sub.ignored
    [notice] = sub.problems
    assert notice.rule == "intake" and "name too long for a file system" in notice.message
    assert (sub.workspace / "myAltNimFunctions.py").read_text() == GOOD


def test_work_saved_beside_the_untouched_starter_is_graded(tmp_path: Path):
    """A student works in the kit's folder, where the starter sits under the graded name, and
    saves their work as `myAltNimFunctions (1).py` (a second download, an editor's copy):
    the untouched starter was graded and the work ignored. The work is graded, under the
    file-name problem; where the file of the exact name is theirs, it stays the one graded."""
    starter = PACK.template_text("myAltNimFunctions.template").replace("\n", "\r\n")
    handed = {"myAltNimFunctions.py": starter, "myAltNimFunctions (1).py": GOOD}
    sub = prepare(student(tmp_path, handed), PACK, tmp_path / "work")
    assert sub.files["myAltNimFunctions.py"] == GOOD
    [named] = [p for p in sub.problems if p.rule == "file-name"]
    assert named.file == "myAltNimFunctions (1).py"
    assert "the `myAltNimFunctions.py` beside it is the starter, unchanged" in named.message
    changed = {**handed, "myAltNimFunctions.py": GOOD.replace("return", "return  ", 1)}
    sub = prepare(student(tmp_path, changed, "s2"), PACK, tmp_path / "work2")
    assert sub.files["myAltNimFunctions.py"] == changed["myAltNimFunctions.py"]
    assert "file-name" not in problems(sub)


def test_a_program_saved_beside_the_untouched_starter_is_the_program(tmp_path: Path):
    """Where the handout names no file, the work under a near name is the program, with the
    program-file notice (never a wrong file name)."""
    pnt = get_pack("pnt")
    program = (pnt.reference_dir / "pnt.py").read_text(encoding="utf-8")
    handed = {"pnt.py": pnt.template_text("pnt.py"), "pnt (1).py": program}
    sub = prepare(student(tmp_path, handed), pnt, tmp_path / "work")
    assert sub.files["pnt.py"] == program
    assert [p.rule for p in sub.problems] == ["program-file"]
    assert "the `pnt.py` beside it is the starter, unchanged" in sub.problems[0].message


@pytest.mark.parametrize(("handed", "graded"), [
    ({"pnt.py": "starter", "a3/pnt.py": "program"}, "a3/pnt.py"),  # a deeper copy of theirs
    ({"pnt.py": "starter", "a3.py": "program"}, "a3.py"),  # another name, reading sys.argv
    ({"pnt.py": "starter", "PNT.pdf": b"%PDF-1.4\n\0\0binary"}, "pnt.py"),  # slides, no code
])
def test_the_starter_under_the_graded_name_gives_way_to_the_students_work(
        tmp_path: Path, handed: dict, graded: str):
    pnt = get_pack("pnt")
    texts = {"starter": pnt.template_text("pnt.py"),
             "program": (pnt.reference_dir / "pnt.py").read_text(encoding="utf-8")}
    files = {path: texts.get(data, data) if isinstance(data, str) else data
             for path, data in handed.items()}
    sub = prepare(student(tmp_path, files), pnt, tmp_path / "work")
    assert sub.files["pnt.py"] == files[graded]
