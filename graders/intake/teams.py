"""``grade --teams FILE``: team work, handed in once, marked for every member.

A team assignment (a handout that says "teams of 4 students ... the team leader [uploads] all
required files from her/his account") leaves the other members with no submission in the
export: each was a 0 row ("no submission") in the reports and in the LMS file. The instructor's
CSV ``student,team`` names each member (an id grading shows, an LMS id, or a roster row's id,
SIS id or user name) and a team label. A member with no submission of their own gets their
team's one submission's mark, and both reports say so. A team with two submissions gives its
other members nothing: the instructor must say which counts. With ``--roster`` a member who is
neither a submission nor a roster row is most likely a typo, and stops ``grade`` at start-up,
naming the line; without one, such a member gets a row under the name given.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from graders.errors import GraderError
from graders.intake.base import Found
from graders.intake.roster import Person
from graders.times import instructor_rows

COLUMNS = ("student", "team")


@dataclass
class Teams:
    """Members by team label, with the line each member came from."""

    path: Path
    members: dict[str, list[str]] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


def load_teams(path: Path) -> Teams:
    """The teams of ``path``; GraderError names the line at fault."""
    teams = Teams(path)
    for where, number, member, team in instructor_rows(path, "--teams", COLUMNS):
        if member in teams.lines:
            raise GraderError(f"{where}: {member!r} is in a team already "
                              f"(line {teams.lines[member]})")
        teams.members.setdefault(team, []).append(member)
        teams.lines[member] = number
    return teams


def _keys(item: Found) -> set[str]:
    return {item.id, item.lms_id, *(item.lms.get(key, "") for key in
                                    ("sis_id", "username", "roster_id"))} - {""}


def _person_keys(person: Person) -> set[str]:
    return {person.lms_id, person.sis_id, person.username} - {""}


def form_teams(teams: Teams, found: list[Found], missing: list[Person],
               roster_given: bool) -> list[tuple[Person, str]]:
    """The members who get their team's mark, as ``(person, team)``; taken out of
    ``missing``. The one submission of each such team is tagged ``lms["team"]``."""
    copies: list[tuple[Person, str]] = []
    for label, members in teams.members.items():
        handed = [item for item in found if _keys(item) & set(members)]
        absent = [person for person in missing if _person_keys(person) & set(members)]
        known = set().union(*map(_keys, handed), *map(_person_keys, absent))
        for member in members:
            if member in known:
                continue
            if roster_given:
                raise GraderError(f"--teams {teams.path}, line {teams.lines[member]}: no "
                                  f"submission or roster row is called {member!r}")
            absent.append(Person(member))
        if len(handed) > 1:
            for item in handed:
                item.notes.append(f"team {label} (--teams) has {len(handed)} submissions: its "
                                  "members without one were given no mark; say which counts")
            continue
        if not handed or not absent:
            continue
        [item] = handed
        item.lms["team"] = label
        names = ", ".join(person.display_name or person.lms_id for person in absent)
        item.notes.append(f"team {label} (--teams): also the mark of {names}, who handed in "
                          "nothing of their own")
        for person in absent:
            if person in missing:
                missing.remove(person)
            copies.append((person, label))
    return copies


def group_copies(found: list[Found], missing: list[Person],
                 copied: set[str]) -> list[tuple[Person, str]]:
    """The other members of each group submission the export names (Gradescope's
    submitters: ``lms["members"]``), each to get the group's mark under their own name and
    LMS id, as ``(person, team)``; taken out of ``missing``. A member who handed in a
    submission of their own, or whom ``--teams`` placed already (``copied``: their ids), is
    left alone."""
    own = {item.lms_id for item in found} - {""}
    copies: list[tuple[Person, str]] = []
    for item in found:
        sids = item.lms.get("members", "").split(";")
        if len(sids) < 2 or item.lms.get("team"):
            continue
        names = json.loads(item.lms.get("names") or "[]")
        emails = item.lms.get("emails", "").split(";")
        label = f"group {item.lms.get('submission') or item.lms_id}"
        members = []
        for index, sid in enumerate(sids[1:], start=1):
            # A submitter without a SID (a course that never set them) is known by e-mail,
            # as Gradescope matches uploaded scores, else by name; never dropped unsaid.
            key = sid or _at(emails, index) or _at(names, index)
            if not key:
                item.notes.append("a submitter of this group submission has no SID, e-mail "
                                  "or name in the export: give them this mark by hand")
                continue
            if key in copied and key not in own:
                item.notes.append(f"{_at(names, index) or key} is a submitter of another "
                                  "group submission too, whose mark they were given: say "
                                  "which counts")
            if key in own or key in copied:
                continue
            person = next((p for p in missing if key in _person_keys(p)
                           or not sid and key in {p.email, p.display_name} - {""}), None)
            if person is None:
                person = Person(key, _at(names, index), _at(emails, index))
            else:
                missing.remove(person)
            members.append(person)
            copied.add(key)
        if members:
            item.lms["team"], item.lms["group_layout"] = label, item.lms.get("layout", "")
            shown = ", ".join(p.display_name or p.lms_id for p in members)
            item.notes.append(f"a group submission: also the mark of {shown}, named "
                              "beside this student as its submitters")
            copies += [(person, label) for person in members]
    return copies


def _at(values: list[str], index: int) -> str:
    return values[index] if index < len(values) else ""
