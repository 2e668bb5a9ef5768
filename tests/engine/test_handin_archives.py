"""A student's tar archive is read as safely as a zip; a RAR or 7-Zip archive is that
student's row with its reason, never a file the class listing drops (``graders.handin``)."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from graders.intake import ingest
from graders.pack import get_pack
from graders.submissions import find_submissions, prepare

PACK = get_pack("altnim")
GOOD = (PACK.reference_dir / "myAltNimFunctions.py").read_text(encoding="utf-8")


def tar(path: Path, members: dict[str, bytes], mode: str = "w:gz", **links: str) -> Path:
    """A tar at ``path``: regular members, and ``links`` (name -> target) as symbolic links."""
    with tarfile.open(path, mode) as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for name, target in links.items():
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            archive.addfile(info)
    return path


def problems(submission) -> set[str]:
    return {problem.rule for problem in submission.problems}


@pytest.mark.parametrize(("name", "mode"), [("alice.tar.gz", "w:gz"), ("alice.tgz", "w:gz"),
                                            ("alice.tar.bz2", "w:bz2"), ("alice.tar.xz", "w:xz"),
                                            ("alice.tar", "w")])
def test_a_tar_of_any_compression_is_read_under_the_students_name(tmp_path, name, mode):
    archive = tar(tmp_path / name, {"a3/myAltNimFunctions.py": GOOD.encode()}, mode)
    submission = prepare(archive, PACK, tmp_path / "work")
    assert submission.id == "alice" and submission.files["myAltNimFunctions.py"] == GOOD
    assert problems(submission) == set()


def test_unsafe_paths_and_links_are_refused_never_followed(tmp_path):
    archive = tar(tmp_path / "eve.tar.gz", {"myAltNimFunctions.py": GOOD.encode(),
                                            "../../escape.py": b"print('out')",
                                            "/etc/evil.py": b"print('out')"},
                  **{"helper.py": "/etc/passwd"})
    submission = prepare(archive, PACK, tmp_path / "work")
    assert set(submission.files) == {"myAltNimFunctions.py"}
    assert problems(submission) == {"archive", "symlink"}
    assert not (tmp_path / "escape.py").exists()


def test_a_tar_bomb_is_cut_short_and_a_broken_tar_is_a_problem(tmp_path):
    pads = {f"pad{index}.txt": b"0" * (2 * 1024 * 1024) for index in range(12)}
    bomb = tar(tmp_path / "bomb.tar.gz", {**pads, "myAltNimFunctions.py": GOOD.encode()})
    assert "zip" in problems(prepare(bomb, PACK, tmp_path / "work"))  # over the size cap
    broken = tmp_path / "broken.tar.gz"
    broken.write_bytes(bomb.read_bytes()[:2000])
    assert problems(prepare(broken, PACK, tmp_path / "work2")) >= {"archive", "missing-file"}


@pytest.mark.parametrize(("name", "kind"), [("bob.rar", "RAR"), ("bob.7z", "7-Zip")])
def test_an_archive_the_grader_cannot_open_is_the_students_reason(tmp_path, name, kind):
    (tmp_path / name).write_bytes(b"Rar!\x1a\x07\x00 or 7z, unreadable here")
    submission = prepare(tmp_path / name, PACK, tmp_path / "work")
    assert submission.id == "bob" and problems(submission) == {"archive", "missing-file"}
    (reason,) = [p.message for p in submission.problems if p.rule == "archive"]
    assert f"is a {kind} archive" in reason and "hand in a .zip" in reason


def test_every_archive_in_a_class_folder_is_a_student(tmp_path):
    """A class folder where students handed in a folder, a zip, a tar.gz and a RAR: four rows,
    none dropped as a stray file."""
    klass = tmp_path / "class"
    (klass / "ann").mkdir(parents=True)
    (klass / "ann" / "myAltNimFunctions.py").write_text(GOOD, encoding="utf-8")
    tar(klass / "bo.tar.gz", {"myAltNimFunctions.py": GOOD.encode()})
    (klass / "cy.rar").write_bytes(b"Rar!\x1a\x07\x00")
    (klass / "di.zip").write_bytes(b"")
    assert [p.name for p in find_submissions(klass)] == ["ann", "bo.tar.gz", "cy.rar", "di.zip"]
    intake = ingest(klass, tmp_path / "stage")
    assert sorted(found.id for found in intake.found) == ["ann", "bo", "cy", "di"]
    assert intake.notes == []


def test_an_archive_in_a_students_folder_is_opened_in_place(tmp_path):
    """As an LMS export keeps it (Moodle: the zip a student uploaded, in their folder): its
    members stand in a folder named after it, and so do an archive's inside it."""
    import zipfile

    folder = tmp_path / "Jane Doe_123_assignsubmission_file_"
    folder.mkdir()
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as nested:
        nested.writestr("deeper.py", "x = 1\n")
    with zipfile.ZipFile(folder / "a3.zip", "w") as zipped:
        zipped.writestr("myAltNimFunctions.py", GOOD)
        zipped.writestr("old.zip", inner.getvalue())
    tar(folder / "extra.tar.gz", {"notes/helper.py": b"y = 2\n"})
    submission = prepare(folder, PACK, tmp_path / "work", student="jane")
    assert submission.files["myAltNimFunctions.py"] == GOOD
    assert submission.helpers == ["old/deeper.py"]  # a3/old.zip's, beside the graded file
    assert sorted(submission.ignored) == ["extra/notes/helper.py"]
    assert problems(submission) == set()


def test_a_tar_name_that_is_no_utf8_is_shown_safely(tmp_path):
    """A member name in Latin-1 (an old tar) reads as lone surrogates: every name the reports
    show is made safe to write out, as a zip's or a folder's is."""
    path = tmp_path / "zoe.tar"
    with tarfile.open(path, "w", encoding="latin-1", format=tarfile.GNU_FORMAT) as archive:
        for name in ("../évasion.py", "réponse.py"):
            info = tarfile.TarInfo(name)
            info.size = 1
            archive.addfile(info, io.BytesIO(b"x"))
    submission = prepare(path, PACK, tmp_path / "work")
    shown = [problem.file for problem in submission.problems] + submission.ignored
    assert shown and all(name.encode("utf-8") for name in shown)
    assert any("\\xe9" in name for name in shown)


ENVIRONMENT = {**{f"A3/venv/lib/python3.8/site-packages/pkg{i // 50}/mod{i}.py": b"x = 1\n"
                  for i in range(700)}, "A3/venv/pyvenv.cfg": b"home = /usr/bin\n"}


def test_a_project_zipped_with_its_virtual_environment_keeps_the_students_files(tmp_path):
    """PyCharm's project zipped whole: 700 files of venv/ listed before the student's one used
    to fill the 500-entry cap ("missing", 0). The environment is left out and named."""
    import zipfile

    archive = tmp_path / "sam.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for name, data in ENVIRONMENT.items():
            zipped.writestr(name, data)
        zipped.writestr("A3/myAltNimFunctions.py", GOOD)
    submission = prepare(archive, PACK, tmp_path / "work")
    assert submission.files["myAltNimFunctions.py"] == GOOD
    (note,) = submission.problems
    assert note.rule == "intake" and note.file == "A3/venv/" and "virtual environment" in \
        note.message
    assert submission.ignored == []  # nothing of the environment is listed file by file


def test_a_tar_or_folder_with_a_virtual_environment_keeps_the_students_files(tmp_path):
    files = {**ENVIRONMENT, "A3/myAltNimFunctions.py": GOOD.encode()}
    archive = tar(tmp_path / "tia.tar.gz", files)
    for source in (archive, tmp_path / "una"):
        if source.suffix != ".gz":
            for name, data in files.items():
                (source / name).parent.mkdir(parents=True, exist_ok=True)
                (source / name).write_bytes(data)
        submission = prepare(source, PACK, tmp_path / f"work-{source.name}")
        assert submission.files["myAltNimFunctions.py"] == GOOD, source.name
        assert [problem.rule for problem in submission.problems] == ["intake"], source.name


def test_an_archive_named_like_the_file_is_never_graded_as_it(tmp_path):
    """``myAltNimFunctions.tar.gz`` inside a zip is no near-miss name of
    ``myAltNimFunctions.py``: its bytes are never read as Python; it is opened, and the file
    inside it is graded."""
    import zipfile

    inner = tar(tmp_path / "inner.tar.gz", {"myAltNimFunctions.py": GOOD.encode()})
    archive = tmp_path / "max.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("myAltNimFunctions.tar.gz", inner.read_bytes())
    submission = prepare(archive, PACK, tmp_path / "work")
    assert submission.files["myAltNimFunctions.py"] == GOOD
    assert problems(submission) == set()


def test_a_class_zip_whose_students_hand_in_tars_and_notebooks_is_still_a_class(tmp_path):
    """A zip of three student folders, one holding only a .tar.gz and one only a notebook:
    three students (such a folder once made the whole zip one student's hand-in)."""
    import shutil

    klass = tmp_path / "class"
    (klass / "ann").mkdir(parents=True)
    (klass / "ann" / "myAltNimFunctions.py").write_text(GOOD, encoding="utf-8")
    (klass / "bo").mkdir()
    tar(klass / "bo" / "a3.tar.gz", {"myAltNimFunctions.py": GOOD.encode()})
    (klass / "cy").mkdir()
    (klass / "cy" / "myAltNimFunctions.ipynb").write_text('{"cells": []}', encoding="utf-8")
    archive = Path(shutil.make_archive(str(tmp_path / "export"), "zip", klass))
    intake = ingest(archive, tmp_path / "stage")
    assert sorted(found.id for found in intake.found) == ["ann", "bo", "cy"]


@pytest.mark.parametrize("packed", ["folder", "zip", "tar"])
def test_a_file_over_the_cap_is_cut_and_said(tmp_path, packed):
    """A 3 MB file (a table pasted into the code) is read to 2 MB, and the report says so: a
    cut file graded as if the student had written only its start would be a silent zero."""
    big = (GOOD + "\n# " + "x" * 3_000_000 + "\n").encode()
    if packed == "tar":
        source = tar(tmp_path / "alice.tar.gz", {"myAltNimFunctions.py": big})
    elif packed == "zip":
        source = tmp_path / "alice.zip"
        with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("myAltNimFunctions.py", big)
    else:
        source = tmp_path / "alice"
        source.mkdir()
        (source / "myAltNimFunctions.py").write_bytes(big)
    submission = prepare(source, PACK, tmp_path / "work")
    assert problems(submission) == {"too-large"}
    assert "only its start was read" in submission.problems[0].message
    assert submission.files["myAltNimFunctions.py"].startswith(GOOD)
