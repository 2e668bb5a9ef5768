"""Attacks through upload names and sizes (issue 27, items 2, 4 and 5), on exports built here.

Verdicts: one upload whose name or files cannot be read (Canvas's `..`, a 240-byte name, a
Moodle file and folder with one name) is that student's intake problem, with the reason in
their report, and every other student is graded; names are made safe for the file system
(`..`, over-long, clashing, control characters) and for the console (terminal escapes and
bidi controls shown escaped); a name with a newline still gets its own row; a student over
the intake cap is read up to the cap and told so.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from rich.console import Console

from graders import console
from graders.cli import main
from graders.intake.base import safe_name
from graders.pack import get_pack
from graders.sandbox import Isolation, detect_isolation

PACK = get_pack("altnim")
FILE = "myAltNimFunctions.py"
CORRECT = (PACK.fixtures_dir / "submissions" / "correct" / FILE).read_text(encoding="utf-8")
ESCAPES = "\x1b[2J\x1b[1;1H\x1b]0;pwned\x07\x1b[31m"
BIDI = "\u202egnp.exe"

pytestmark = pytest.mark.skipif(detect_isolation() is Isolation.RLIMITS,
                                reason="grades under bubblewrap")


def _zip(path: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return path


def _grade(export: Path, out: Path, *extra: str) -> tuple[int, dict[str, dict], str]:
    """Grade ``export`` through `grade`: exit code, results by student, console text."""
    stream = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(console, "console", Console(file=stream, highlight=False, width=200))
        patch.setattr(console, "out", Console(file=stream, highlight=False, width=200))
        code = main([str(export), "-a", PACK.id, "--out", str(out), *extra])
    results = {}
    if (out / "results.json").is_file():
        results = {r["student"]: r for r in json.loads((out / "results.json").read_text())}
    return code, results, stream.getvalue()


def _notes(result: dict) -> str:
    return json.dumps(result, ensure_ascii=False)


def test_canvas_uploads_named_dotdot_and_240_bytes_stop_nobody(tmp_path):
    long_name = "a" * 240 + ".py"
    export = _zip(tmp_path / "canvas.zip", {
        f"doejane_12345_67890_{FILE}": CORRECT,
        "doejane_12345_67890_..-1": "print('dot dot')\n",
        f"roemary_12346_67891_{FILE}": CORRECT,
        f"roemary_12346_67891_{long_name}": "x = 1\n",
        f"smithbob_12347_67892_{FILE}": CORRECT,
    })
    code, results, text = _grade(export, tmp_path / "out")
    assert code == 0, text
    assert {r["student"]: r["total"] for r in results.values()} == {
        "doejane (12345)": 100, "roemary (12346)": 100, "smithbob (12347)": 100}
    assert "`..`" in _notes(results["doejane (12345)"])  # named, with what became of it
    assert "too long" in text + _notes(results["roemary (12346)"])


def test_a_moodle_file_and_folder_with_one_name_stop_nobody(tmp_path):
    folder = "Doe Jane_12345_assignsubmission_file_"
    export = _zip(tmp_path / "moodle.zip", {
        f"{folder}/{FILE}": CORRECT,
        f"{folder}/notes/readme.txt": "a folder",
        f"{folder}/notes": "a file with the folder's name",
        f"Roe Mary_12346_assignsubmission_file_/{FILE}": CORRECT,
    })
    code, results, text = _grade(export, tmp_path / "out")
    assert code == 0, text
    assert {r["student"]: r["total"] for r in results.values()} == {
        "Doe Jane (12345)": 100, "Roe Mary (12346)": 100}
    assert "`" + folder + "/notes" in text or "notes" in _notes(results["Doe Jane (12345)"])


def test_terminal_escapes_and_bidi_in_names_are_shown_escaped(tmp_path):
    batch = tmp_path / "class"
    for name in (f"evil{ESCAPES}name", f"bidi{BIDI}", "line\nbreak", "plain"):
        (batch / name).mkdir(parents=True)
        (batch / name / FILE).write_text(CORRECT, encoding="utf-8")
    code, results, text = _grade(batch, tmp_path / "out")
    assert code == 0, text
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\\x1b" in text and "\\u202e" in text
    assert len(results) == 4 and all(r["total"] == 100 for r in results.values())
    assert any("\n" in student for student in results)  # its own row, its own name


@pytest.mark.parametrize(("name", "safe"), [
    ("..", "_.."), (".", "_."), ("", "_"), ("a/b", "a_b"), ("a\x00b", "a_b"),
    ("x\x1b[31m.py", "x_[31m.py"), ("plain.py", "plain.py"),
])
def test_safe_names(name, safe):
    assert safe_name(name) == safe


def test_an_over_long_name_keeps_its_start_and_end_and_stays_apart():
    first, second = "a" * 300 + "1.py", "a" * 300 + "2.py"
    assert safe_name(first) != safe_name(second)
    for made in (safe_name(first), safe_name(second)):
        assert len(made.encode()) <= 200 and made.startswith("aaaa") and made.endswith(".py")


def test_a_student_over_the_intake_cap_is_read_up_to_it(tmp_path):
    batch = tmp_path / "class"
    heavy = batch / "heavy"
    heavy.mkdir(parents=True)
    (heavy / FILE).write_text(CORRECT, encoding="utf-8")
    for number in range(15):  # 15 x 1.9 MB: over the 20 MB default cap
        (heavy / f"data{number:02d}.txt").write_bytes(b"x" * 1_900_000)
    light = batch / "light"
    light.mkdir()
    (light / FILE).write_text(CORRECT, encoding="utf-8")
    code, results, text = _grade(batch, tmp_path / "out")
    assert results["light"]["total"] == 100
    assert results["heavy"]["total"] == 100  # the required file came first
    assert "20 MB" in _notes(results["heavy"]), text


def test_huge_helper_files_are_linked_not_shown(tmp_path):
    from graders.report.views import PAGE_SOURCE_CHARS

    batch = tmp_path / "class"
    student = batch / "bulky"
    student.mkdir(parents=True)
    (student / FILE).write_text(CORRECT, encoding="utf-8")
    body = "".join(f"    value_{n} = {n}  # padding padding padding\n" for n in range(36_000))
    helper = f"from myAltNimClasses import *\n\n\ndef helper():\n{body}    return 0\n"
    for number in range(3):  # three 1.9 MB helper modules
        (student / f"helper{number}.py").write_text(helper, encoding="utf-8")
    code, results, text = _grade(batch, tmp_path / "out")
    assert results["bulky"]["total"] == 100, text
    page = tmp_path / "out" / "students" / "bulky.html"
    assert page.stat().st_size < 4 * PAGE_SOURCE_CHARS  # was 26 MB
    html = page.read_text(encoding="utf-8")
    linked = sorted((tmp_path / "out" / "students" / "bulky.files").glob("file-*.txt"))
    assert len(linked) == 3
    for path in linked:
        assert path.read_text(encoding="utf-8") == helper
        assert f'href="bulky.files/{path.name}"' in html


def test_files_too_long_for_the_page_are_not_compared_for_similarity():
    from graders.report import similar
    from graders.report.views import PAGE_SOURCE_CHARS
    from graders.results import SubmissionResult

    huge = "".join(f"value_{n} = {n}\n" for n in range(PAGE_SOURCE_CHARS // 10))
    results = [
        SubmissionResult(student=name, assignment=PACK.id, assignment_title="", status="graded",
                         isolation="", files={FILE: code, "helper.py": huge})
        for name, code in (("first", CORRECT), ("second", "def other():\n    return 1\n"))
    ]
    found = similar.section(PACK, results, threshold=0.5)
    assert found.compared == 2 and found.pairs == []  # the shared huge helper is not compared


def test_names_that_clash_once_made_safe_are_both_kept(tmp_path):
    from graders.intake.base import Stage

    uploads = {}
    for number, name in enumerate(("x\x01.py", "x\x02.py", "..")):
        uploads[name] = tmp_path / f"upload{number}"
        uploads[name].write_text(str(number), encoding="utf-8")
    notes: list[str] = []
    folder = Stage(tmp_path / "stage").folder(uploads, notes)
    kept = {path.name: path.read_text(encoding="utf-8") for path in folder.iterdir()}
    assert sorted(kept.values()) == ["0", "1", "2"] and "x_.py" in kept and "_.." in kept
    assert len(notes) == 3 and all("is kept as" in note for note in notes)
