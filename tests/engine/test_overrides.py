"""TA overrides: the audit trail in overrides.toml, how marks change, and regrades keeping them."""

from __future__ import annotations

import csv
import io
import json
import shutil
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from graders import overrides
from graders.cli import main
from graders.pack import get_pack
from graders.report import ReportWriter
from graders.results import CriterionMark, Deduction, SubmissionResult
from graders.sandbox import Isolation
from graders.submissions import slugify

PACK = get_pack("altnim")
SAMPLES = PACK.fixtures_dir / "submissions"


def result(student: str = "alice", **changes) -> SubmissionResult:
    base = SubmissionResult(
        student=student, assignment="altnim", assignment_title="altNim", status="graded",
        isolation="bubblewrap", total=40.0, max_total=100.0,
        criteria=[CriterionMark(id="output", title="o", points=30.0, earned=0.0, passed=0,
                                total=2),
                  CriterionMark(id="eval", title="e", points=15.0, earned=15.0, passed=1,
                                total=1),
                  CriterionMark(id="minimax", title="m", points=30.0, earned=30.0, passed=1,
                                total=1)],
        deductions=[Deduction(reason="Forbidden import", points=5.0)],
        files={"myAltNimFunctions.py": "def eval(s, m):\n    return 0\n"},
    )
    return replace(base, **changes)


def entry(**changes) -> overrides.Override:
    base = overrides.Override(
        student="alice", criterion="output", points=20.0, comment="diff is only spacing",
        by="TA Kim", at="2026-01-02T10:00:00+00:00",
        code=overrides.code_digest(result().files),
    )
    return replace(base, **changes)


# -- the file -------------------------------------------------------------------------------


def test_entries_round_trip_through_the_file_with_awkward_text(tmp_path):
    path = tmp_path / overrides.FILE_NAME
    awkward = entry(student='Zoë "Z" O\'Brien\\', comment="line one\nline two\t\x7f ✓ 🙂",
                    by="=HYPERLINK()")
    overrides.append(path, awkward)
    overrides.append(path, entry(criterion="total", points=55.5))
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Mark overrides")
    tomllib.loads(text)  # valid TOML
    assert overrides.load(path) == ([awkward, entry(criterion="total", points=55.5)], [])


def test_appending_keeps_what_a_ta_wrote_by_hand(tmp_path):
    path = tmp_path / overrides.FILE_NAME
    path.write_text('# my notes\n[[override]]\nstudent = "bob"\ncriterion = "eval"\npoints = 3\n'
                    'comment = "by hand"\nby = "me"\nat = 2026-01-01T00:00:00Z\n')
    overrides.append(path, entry())
    assert path.read_text().startswith("# my notes\n")
    entries, problems = overrides.load(path)
    assert problems == []
    assert [(e.student, e.points, e.code) for e in entries] == [("bob", 3.0, ""),
                                                                ("alice", 20.0, entry().code)]
    assert entries[0].at.startswith("2026-01-01T00:00:00")


@pytest.mark.parametrize("table, why", [
    ({"student": "a", "criterion": "c", "points": 1, "by": "x", "at": "t"}, "missing comment"),
    ({"student": "a", "criterion": "c", "points": 1, "comment": " ", "by": "x", "at": "t"},
     "non-empty"),
    ({"student": "a", "criterion": "c", "points": "1", "comment": "c", "by": "x", "at": "t"},
     "points must be a number"),
    ({"student": "a", "criterion": "c", "points": True, "comment": "c", "by": "x", "at": "t"},
     "points must be a number"),
    ({"student": "a", "criterion": "c", "points": 1, "comment": "c", "by": "x", "at": "t",
      "pointz": 2}, "unknown key(s) pointz"),
])
def test_an_unusable_entry_is_named_and_left_out(tmp_path, table, why):
    path = tmp_path / overrides.FILE_NAME
    lines = "".join(f"{key} = {json.dumps(value)}\n" for key, value in table.items())
    path.write_text(f"[[override]]\n{lines}")
    entries, problems = overrides.load(path)
    assert entries == [] and len(problems) == 1 and why in problems[0]


def test_a_broken_file_applies_nothing_and_says_so(tmp_path):
    path = tmp_path / overrides.FILE_NAME
    path.write_text("[[override]\nstudent = ")
    assert overrides.load(path)[0] == []
    assert "could not be read" in overrides.load(path)[1][0]
    assert overrides.load(tmp_path / "none.toml") == ([], [])


# -- applying -------------------------------------------------------------------------------


def test_a_criterion_override_moves_the_total_and_keeps_the_automatic_mark():
    r = result()
    overrides.apply(r, [entry()])
    assert (r.total, r.automatic_total) == (60.0, 40.0)
    assert [(m.id, m.earned, m.automatic) for m in r.criteria] == [
        ("output", 20.0, 0.0), ("eval", 15.0, None), ("minimax", 30.0, None)]
    [record] = r.overrides
    assert (record.criterion, record.automatic, record.points, record.by, record.stale) == (
        "output", 0.0, 20.0, "TA Kim", False)
    assert SubmissionResult.from_dict(json.loads(r.to_json())) == r


def test_applying_again_starts_from_the_automatic_marks():
    r = result()
    overrides.apply(r, [entry()])
    once = r.to_json()
    overrides.apply(r, [entry()])
    assert r.to_json() == once
    overrides.apply(r, [])  # the override was withdrawn: the grader's marks come back
    assert r == result()


def test_the_late_rule_takes_its_share_of_the_marks_as_overridden():
    """15 % late: the TA's 20 on a criterion is 15 % lighter too, and withdrawing it gives the
    grader's own late deduction back."""
    late = Deduction(reason="late by 2 h 10 min: 3 started hour(s) x 5%", points=6.0,
                     percent=15.0)  # 15 % of 45 - 5
    r = result(deductions=[Deduction(reason="Forbidden import", points=5.0), late], total=34.0)
    overrides.apply(r, [entry()])  # output 0 -> 20
    assert [d.points for d in r.deductions] == [5.0, 9.0]  # 15 % of 65 - 5
    assert (r.total, r.automatic_total) == (51.0, 34.0)
    overrides.apply(r, [])
    assert [d.points for d in r.deductions] == [5.0, 6.0] and r.total == 34.0


def test_the_latest_override_of_a_criterion_wins_and_a_total_override_sets_the_total():
    r = result()
    overrides.apply(r, [entry(points=10.0), entry(points=25.0), entry(criterion="eval",
                                                                     points=5.0)])
    assert r.total == 40.0 + 25.0 - 10.0
    assert [o.superseded for o in r.overrides] == [True, False, False]
    overrides.apply(r, [entry(), entry(criterion="total", points=77.0, comment="viva")])
    assert (r.total, r.automatic_total) == (77.0, 40.0)
    assert r.criteria[0].earned == 20.0


def test_an_override_is_flagged_when_the_students_code_changed_since():
    changed = result(files={"myAltNimFunctions.py": "def eval(s, m):\n    return 1\n"})
    overrides.apply(changed, [entry()])
    assert changed.overrides[0].stale and changed.total == 60.0  # still applies
    assert overrides.stale([changed]) == [(changed, changed.overrides[0])]
    hand_written = result()
    overrides.apply(hand_written, [entry(code="")])  # no digest recorded: cannot tell
    assert not hand_written.overrides[0].stale


def test_checks_name_unknown_criteria_students_and_out_of_range_points():
    r = result()
    assert "no criterion 'speed'" in overrides.check(entry(criterion="speed"), r)
    assert "outside 0..30" in overrides.check(entry(points=31.0), r)
    assert "outside 0..100" in overrides.check(entry(criterion="total", points=-1.0), r)
    assert overrides.check(entry(criterion="total", points=100.0), r) is None
    kept, problems = overrides.usable([entry(), entry(student="nobody")], [r])
    assert kept == [entry()] and "no student 'nobody'" in problems[0]


def test_an_override_follows_the_lms_id_when_two_students_share_a_name():
    # Run 1 reported LMS id 101 as "Alex Smith" and 102 as "Alex Smith (2)"; a late
    # submission reordered the export, so run 2 reports them the other way round.
    first = result("Alex Smith", lms_id="101", display_name="Alex Smith")
    second = result("Alex Smith (2)", lms_id="102", display_name="Alex Smith")
    recorded = entry(student="Alex Smith", lms_id="101")
    swapped = [replace(first, student="Alex Smith (2)"), replace(second, student="Alex Smith")]
    kept, problems = overrides.usable([recorded], swapped)
    assert (kept, problems) == ([recorded], [])
    for r in swapped:
        overrides.apply(r, kept)
    assert [(r.lms_id, r.total) for r in swapped] == [("101", 60.0), ("102", 40.0)]


def test_an_lms_id_on_no_student_or_on_two_is_applied_to_nobody():
    twins = [result("a", lms_id="7"), result("b", lms_id="7")]
    _, problems = overrides.usable([entry(lms_id="7")], twins)
    assert "LMS id '7' (recorded for 'alice') is on 2 students ('a', 'b')" in problems[0]
    _, problems = overrides.usable([entry(lms_id="8")], [result(lms_id="9")])
    assert "no student with LMS id '8' (recorded for 'alice')" in problems[0]


def test_the_lms_id_round_trips_and_an_entry_without_one_writes_no_line(tmp_path):
    path = tmp_path / overrides.FILE_NAME
    overrides.append(path, entry(lms_id="s-0042"))
    overrides.append(path, entry())
    assert overrides.load(path) == ([entry(lms_id="s-0042"), entry()], [])
    assert path.read_text(encoding="utf-8").count("lms_id") == 1


# -- reports --------------------------------------------------------------------------------


def test_every_report_shows_the_override_and_marks_csv_uses_the_final_mark(tmp_path):
    overrides.append(tmp_path / overrides.FILE_NAME, entry())
    overrides.append(tmp_path / overrides.FILE_NAME, entry(student="ghost"))
    alice, bob = result(), result(student="bob")
    writer = ReportWriter(tmp_path, PACK)
    for r in (alice, bob):
        writer.write_student(r)
    writer.write_index([alice, bob], Isolation.BUBBLEWRAP)
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO(
        (tmp_path / "marks.csv").read_text()))}
    assert (rows["alice"]["total"], rows["alice"]["output"], rows["alice"]["automatic_total"]) \
        == ("60", "20", "40")
    assert rows["alice"]["overrides"] == "output 0->20 by TA Kim"
    assert (rows["bob"]["total"], rows["bob"]["overrides"]) == ("40", "")
    data = {d["student"]: d for d in json.loads((tmp_path / "results.json").read_text())}
    assert (data["alice"]["total"], data["alice"]["automatic_total"]) == (60.0, 40.0)
    assert data["alice"]["overrides"][0]["comment"] == "diff is only spacing"
    page = (tmp_path / "students" / "alice.html").read_text()
    assert 'data-testid="override-banner"' in page and "diff is only spacing" in page
    assert "TA Kim" in page and "2026-01-02T10:00:00+00:00" in page
    index = (tmp_path / "index.html").read_text()
    assert 'data-testid="override-log"' in index and "no student &#39;ghost&#39;" in index


def test_an_override_added_later_rewrites_that_students_page(tmp_path):
    alice = result()
    writer = ReportWriter(tmp_path, PACK)
    writer.write_student(alice)
    writer.write_index([alice], Isolation.BUBBLEWRAP)
    page = tmp_path / "students" / "alice.html"
    assert "override-banner" not in page.read_text()
    overrides.append(tmp_path / overrides.FILE_NAME, entry())
    writer.write_index([alice], Isolation.BUBBLEWRAP)
    assert "override-banner" in page.read_text()
    assert json.loads(page.with_suffix(".json").read_text())["total"] == 60.0


# -- the command and regrades (done-when) -----------------------------------------------------


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    folder = tmp_path / "batch"
    for name in ("correct", "wrong_eval_sign"):
        shutil.copytree(SAMPLES / name, folder / name)
    return folder


def marks(out: Path) -> dict[str, dict[str, str]]:
    return {row["student"]: row for row in csv.DictReader((out / "marks.csv").open())}


def test_a_regrade_keeps_an_override_and_flags_it_once_the_code_changed(batch, tmp_path, capsys):
    out = tmp_path / "reports"
    assert main([str(batch), "--out", str(out), "--jobs", "1"]) == 0
    assert marks(out)["wrong_eval_sign"]["total"] == "15"
    command = ["override", "altnim", "wrong_eval_sign", "--criterion", "eval", "--points", "15",
               "--comment", "sign slip; the rest is right", "--by", "TA Kim", "--out", str(out)]
    assert main(command) == 0
    assert "total now 30" in capsys.readouterr().out
    assert marks(out)["wrong_eval_sign"]["total"] == "30"  # written at once, no regrade
    assert main([str(batch), "--out", str(out), "--jobs", "1"]) == 0  # reused: kept
    row = marks(out)["wrong_eval_sign"]
    assert (row["total"], row["eval"], row["automatic_total"]) == ("30", "15", "15")
    assert "override stale" not in (out / "index.html").read_text()
    target = batch / "wrong_eval_sign" / "myAltNimFunctions.py"
    target.write_text(target.read_text() + "\n# changed after the override\n")
    assert main([str(batch), "--out", str(out), "--jobs", "1"]) == 0  # regraded: kept, flagged
    assert marks(out)["wrong_eval_sign"]["total"] == "30"
    assert "[code changed since]" in marks(out)["wrong_eval_sign"]["overrides"]
    data = json.loads((out / "students" / f"{slugify('wrong_eval_sign')}.json").read_text())
    assert data["overrides"][0]["stale"] is True
    index = (out / "index.html").read_text()
    assert "override stale" in index and 'data-testid="override-problems"' in index


def test_the_command_refuses_unknown_students_and_points_out_of_range(batch, tmp_path, capsys):
    out = tmp_path / "reports"
    assert main(["override", "altnim", "x", "-c", "eval", "-p", "1", "-m", "m", "--by", "b",
                 "--out", str(out)]) == 2
    assert "grade the submissions first" in capsys.readouterr().err
    assert main([str(batch / "correct"), "--out", str(out), "--jobs", "1"]) == 0
    assert main(["override", "altnim", "corect", "-c", "eval", "-p", "1", "-m", "m", "--by",
                 "b", "--out", str(out)]) == 2
    assert "did you mean 'correct'" in capsys.readouterr().err
    assert main(["override", "altnim", "correct", "-c", "eval", "-p", "99", "-m", "m", "--by",
                 "b", "--out", str(out)]) == 2
    assert "outside 0..15" in capsys.readouterr().err
    assert not (out / overrides.FILE_NAME).exists()


def test_override_text_is_escaped_everywhere(tmp_path):
    hostile = "<script>alert(1)</script>"
    overrides.append(tmp_path / overrides.FILE_NAME,
                     entry(comment=f"see {hostile}", by=f"<b>{hostile}</b>"))
    alice = result()
    writer = ReportWriter(tmp_path, PACK)
    writer.write_student(alice)
    writer.write_index([alice], Isolation.BUBBLEWRAP)
    for page in (tmp_path / "index.html", tmp_path / "students" / "alice.html"):
        html = page.read_text()
        assert hostile not in html and "<b>" not in html
        assert "see &lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert html.count("<script>") == 1
