"""`grade --teams FILE`: team work is handed in once and marked for every member."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from graders.cli import main
from graders.errors import GraderError
from graders.intake.base import Found
from graders.intake.roster import Person
from graders.intake.teams import form_teams, load_teams
from graders.pack import get_pack

ALTNIM = get_pack("altnim")


def _teams(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "teams.csv"
    path.write_text(text, encoding="utf-8")
    return path


def _found(name: str, roster_id: str) -> Found:
    return Found(id=name, source=Path(name), lms_id=roster_id, lms={"roster_id": roster_id})


@pytest.mark.parametrize(("text", "said"), [
    ("name,group\nalice,t1\n", "line 1: the header must be `student,team`"),
    ("student,team\nalice,t1\nalice,t2\n", "line 3: 'alice' is in a team already (line 2)"),
    ("student,team\nalice,\n", "line 2: expected `student,team`"),
])
def test_a_bad_teams_file_names_its_line(tmp_path: Path, text: str, said: str):
    with pytest.raises(GraderError, match=said.replace("(", r"\(").replace(")", r"\)")):
        load_teams(_teams(tmp_path, text))


def test_a_member_with_no_submission_gets_the_teams_one_submission(tmp_path: Path):
    """The leader handed in for t1; t2 handed in nothing; t3 handed in twice."""
    teams = load_teams(_teams(tmp_path, "student,team\n1001,t1\n1002,t1\n1003,t2\n1004,t2\n"
                                        "1005,t3\n1006,t3\n1007,t3\n"))
    found = [_found("Alice (1001)", "1001"), _found("Eve (1005)", "1005"),
             _found("Finn (1006)", "1006")]
    people = {n: Person(n, f"P{n}") for n in ("1002", "1003", "1004", "1007")}
    missing = list(people.values())
    copies = form_teams(teams, found, missing, roster_given=True)
    assert copies == [(people["1002"], "t1")]
    assert missing == [people["1003"], people["1004"], people["1007"]]
    assert found[0].lms["team"] == "t1" and "also the mark of P1002" in found[0].notes[0]
    assert all("has 2 submissions" in item.notes[0] for item in found[1:])


def test_with_a_roster_a_member_nobody_is_called_is_refused(tmp_path: Path):
    teams = load_teams(_teams(tmp_path, "student,team\n1001,t1\n10002,t1\n"))
    with pytest.raises(GraderError, match="line 3: no submission or roster row is called "
                                          "'10002'"):
        form_teams(teams, [_found("Alice (1001)", "1001")], [], roster_given=True)


def test_teammates_get_the_team_mark_in_the_reports_and_marks(tmp_path: Path):
    """Without a roster the members are named as the teams file names them."""
    batch = tmp_path / "batch"
    shutil.copytree(ALTNIM.fixtures_dir / "submissions" / "correct", batch / "leader")
    teams = _teams(tmp_path, "student,team\nleader,A3-7\n40023456,A3-7\n")
    out = tmp_path / "out"
    assert main([str(batch), "-a", "altnim", "--out", str(out), "--teams", str(teams)]) == 0
    with (out / "marks.csv").open(encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert set(rows) == {"leader", "40023456"}
    assert rows["40023456"]["total"] == rows["leader"]["total"] == "100"
    copy = json.loads((out / "students" / "40023456.json").read_text(encoding="utf-8"))
    assert copy["status"] == "graded" and copy["lms"]["graded_with"] == "leader"
    assert any("Graded with leader's submission" in v["message"] for v in copy["violations"])
    leader = json.loads((out / "students" / "leader.json").read_text(encoding="utf-8"))
    assert any("also the mark of 40023456" in v["message"] for v in leader["violations"])
    assert (out / "feedback" / "40023456.html").is_file()  # the member's own feedback page
    compared = out / "similarity.json"  # a copy is no work of its own: never 100 % "similar"
    assert not compared.exists() or not json.loads(compared.read_text())["section"]["pairs"]
    assert json.loads((out / "intake.json").read_text(encoding="utf-8"))["submissions"] == 1


def _group(sids: list[str], names: list[str], emails: list[str]) -> Found:
    return Found(id=names[0], source=Path("submission_7"), lms_id=sids[0] or "submission_7",
                 lms={"submission": "7", "members": ";".join(sids), "emails": ";".join(emails),
                      "names": json.dumps(names)})


def test_a_group_member_without_a_sid_is_known_by_email_then_name_and_never_dropped():
    from graders.intake.teams import group_copies

    found = [_group(["1002", "", "", ""], ["Bob Bee", "Dana Dee", "Eve Ek", ""],
                    ["bob@x.edu", "dana@x.edu", "", ""])]
    roster_dana = Person("S-77", "Dana Dee", "dana@x.edu")
    missing = [roster_dana]
    copies = group_copies(found, missing, set())
    assert [(person.lms_id, person.display_name) for person, _ in copies] == [
        ("S-77", "Dana Dee"), ("Eve Ek", "Eve Ek")]
    assert missing == []  # Dana's roster row is her copy, not a second row at 0
    assert any("has no SID, e-mail or name" in note for note in found[0].notes)
