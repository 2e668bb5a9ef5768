"""A student who zips the folder they worked in hands in the pre-check kit with their files:
the kit's machinery (``_precheck/``) and the files it put beside it are never their work. The
instructor's intake leaves them out, with one notice, and grades the student's files beside
them; a tool's cache (python_ta's mypy run, pytest) is left out too."""

from __future__ import annotations

import zipfile
from pathlib import Path

from graders.checks import run_rules
from graders.pack import get_pack
from graders.submissions import prepare


def kit_with_work(kit: Path, pack_id: str, out: Path) -> Path:
    """The kit's zip again, the reference's files in its folder (where a student works) and
    the caches their runs leave there."""
    pack = get_pack(pack_id)
    handed = out / "alice.zip"
    with zipfile.ZipFile(kit) as source, zipfile.ZipFile(handed, "w") as target:
        for info in source.infolist():
            target.writestr(info, source.read(info))
        for name in pack.submitted_files:
            target.write(pack.reference_dir / name, f"{pack_id}-kit/{name}")
        target.writestr(f"{pack_id}-kit/.mypy_cache/3.11/cache.db", b"\0" * 4096)
        target.writestr(f"{pack_id}-kit/.pytest_cache/README.md", "pytest cache")
    return handed


def test_the_kit_handed_in_is_left_out_and_the_work_beside_it_graded(kit_zip, tmp_path):
    pack = get_pack("altnim")
    handed = kit_with_work(kit_zip("altnim"), "altnim", tmp_path)
    with zipfile.ZipFile(handed) as archive:
        assert sum("_precheck/" in name for name in archive.namelist()) > 20
    submission = prepare(handed, pack, tmp_path / "work")
    assert submission.files["myAltNimFunctions.py"] == (
        pack.reference_dir / "myAltNimFunctions.py").read_text(encoding="utf-8")
    assert not [name for name in [*submission.helpers, *submission.ignored]
                if "_precheck" in name or name.rsplit("/", 1)[-1] in (
                    "precheck.py", "conftest.py", "pytest.ini", "requirements.txt")
                or ".mypy_cache" in name or ".pytest_cache" in name]
    notices = [p for p in submission.problems if p.rule == "intake"]
    assert [n.file for n in notices] == ["altnim-kit/_precheck/"]
    assert "pre-check kit's, not your work" in notices[0].message
    assert [v.rule for v in run_rules(pack, submission)] == ["intake"]


def test_a_folder_named_like_the_kits_without_its_mark_is_the_students(tmp_path):
    """Only a folder holding ``_precheck/kit.json`` is the kit: a student's own conftest.py
    or precheck.py elsewhere is theirs."""
    pack = get_pack("altnim")
    folder = tmp_path / "bob"
    folder.mkdir()
    reference = pack.reference_dir / "myAltNimFunctions.py"
    (folder / "myAltNimFunctions.py").write_bytes(reference.read_bytes())
    (folder / "conftest.py").write_text("import os\n", encoding="utf-8")
    (folder / "_precheck").mkdir()
    (folder / "_precheck" / "notes.py").write_text("x = 1\n", encoding="utf-8")
    submission = prepare(folder, pack, tmp_path / "work")
    assert not [p for p in submission.problems if "pre-check kit" in p.message]
    assert "conftest.py" in [*submission.helpers, *submission.ignored]


def test_a_readme_of_their_own_beside_the_kit_is_theirs(kit_zip, tmp_path):
    """The kit's README.txt names precheck.py; one the student wrote over it is kept."""
    with zipfile.ZipFile(kit_zip("altnim")) as archive:
        archive.extractall(tmp_path / "alice")
    kit = tmp_path / "alice" / "altnim-kit"
    (kit / "README.txt").write_text("My design notes: minimax by hand.\n", encoding="utf-8")
    submission = prepare(tmp_path / "alice", get_pack("altnim"), tmp_path / "work")
    assert "altnim-kit/README.txt" in submission.ignored
    assert "altnim-kit/precheck.py" not in [*submission.helpers, *submission.ignored]
