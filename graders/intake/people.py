"""Before grading: who each submission is, and when it was handed in.

:func:`settle` applies the roster (names, e-mails, SIS ids; who has no submission), the
instructor's ``--times`` file (which wins over the export), ``--extensions`` and ``--teams``
(:mod:`graders.intake.teams`), and the zone for the export's
zone-less times (Brightspace folder dates, Moodle's worksheet), and writes online text as the
assignment's file. It never reads a student's files for any of this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, tzinfo

from graders.intake.base import Found, named
from graders.intake.roster import Person, Roster
from graders.intake.teams import Teams, form_teams, group_copies
from graders.pack import Pack
from graders.times import InstructorTimes


@dataclass
class Settled:
    """The submissions ready to prepare, and the roster's people with no submission."""

    found: list[Found]
    missing: list[Person] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    team: list[tuple[Person, str]] = field(default_factory=list)  # who gets a team's mark


def settle(
    pack: Pack, found: list[Found], *, roster: Roster | None = None,
    times: Mapping[str, datetime] | None = None, zone: tzinfo | None = None,
    extensions: Mapping[str, datetime] | None = None, teams: Teams | None = None,
) -> Settled:
    """``found`` with roster names, times, own due dates and online text settled
    (GraderError at start-up for a ``--times`` or ``--extensions`` line naming nobody; an
    extension may name a roster row with no submission yet)."""
    if isinstance(times, InstructorTimes):
        times.check_known(known_ids(found))
    if isinstance(extensions, InstructorTimes):
        extensions.check_known(known_ids(found, roster))
    given = {id(item): (times or {}).get(item.id) or (times or {}).get(item.lms_id)
             for item in found}
    own_due = {id(item): (extensions or {}).get(item.id) or (extensions or {}).get(item.lms_id)
               for item in found}  # by the export's ids, before the roster renames
    settled = Settled(found)
    _flag_shared_ids(found)
    if roster is not None:
        _apply_roster(roster, settled)
    if teams is not None:
        settled.team = form_teams(teams, found, settled.missing, roster is not None)
    settled.team += group_copies(found, settled.missing,
                                 {person.lms_id for person, _ in settled.team})
    for item in found:
        when = given[id(item)]
        if when is not None:
            item.submitted_at = when
            item.lms["time_from"] = "--times"
        elif item.submitted_at is not None and item.submitted_at.tzinfo is None:
            _localise(item, zone)
        _extend(item, own_due[id(item)], extensions or {})
        _online_text(item, pack)
    return settled


def known_ids(found: list[Found], roster: Roster | None = None) -> set[str]:
    """Every id an instructor's file may name a student by: the export's and, with a roster,
    the roster's (its ids, SIS ids, user names, and the ids the reports show)."""
    known = {f.id for f in found} | {f.lms_id for f in found}
    for person in roster.people if roster else []:
        known |= {person.lms_id, person.sis_id, person.username, missing_id(person)}
    return known - {""}


def _extend(item: Found, due: datetime | None, extensions: Mapping[str, datetime]) -> None:
    """The student's own due date: named by the export's ids, or the roster's."""
    for key in (item.id, *(item.lms.get(k, "") for k in ("roster_id", "sis_id", "username"))):
        due = due or extensions.get(key)
    if due is not None:
        item.due = due
        item.lms["due"] = due.isoformat()  # on the result: its feedback page follows it
        item.notes.append(f"due {due:%Y-%m-%d %H:%M %z} for this student (an extension, from "
                          "--extensions): the late rule counts from it")


def _flag_shared_ids(found: list[Found]) -> None:
    """Two submissions of one export under one LMS id: both kept, both flagged."""
    by_id: dict[str, list[Found]] = {}
    for item in found:
        if item.lms_id and item.lms.get("layout", "plain") != "plain":
            by_id.setdefault(item.lms_id, []).append(item)
    for lms_id, items in by_id.items():
        if len(items) > 1:
            for item in items:
                item.notes.append(f"{len(items)} submissions in this export carry the LMS id "
                                  f"{lms_id}: each was graded; the instructor must say which "
                                  "one counts before marks go back to the LMS")


def _apply_roster(roster: Roster, settled: Settled) -> None:
    """Each submission's roster row: by the LMS's ids first, by name only as the fallback.
    A row two submissions claim (neither, or both, by its id) goes to neither: both are kept
    and flagged."""
    claims: dict[str, list[Found]] = {}
    by_id: dict[str, list[Found]] = {}
    namesakes: set[str] = set()  # rows a submission's name matched with others: maybe theirs
    people = {person.lms_id: person for person in roster.people}
    for item in settled.found:
        person = roster.by_id(item)
        if person is not None:
            by_id.setdefault(person.lms_id, []).append(item)
        else:
            person = _by_name(roster, item, namesakes)
        if person is not None:
            claims.setdefault(person.lms_id, []).append(item)
    for lms_id, items in claims.items():
        person = people[lms_id]
        if len(items) > 1 and len(by_id.get(lms_id, [])) == 1:  # its id beats a name
            [owner] = by_id[lms_id]
            for item in items:
                if item is not owner:
                    item.notes.append(f"not matched to the roster: its name is that of "
                                      f"{person.display_name} (line {person.line}), whose id "
                                      f"is another submission's ({owner.id})")
            items = [owner]
        if len(items) > 1:
            for item in items:
                item.notes.append(f"{len(items)} submissions match the roster row of "
                                  f"{person.display_name or lms_id} (line {person.line}): "
                                  "neither was given it; the instructor must say which is "
                                  "theirs")
            continue
        _take(items[0], person, roster.kind)
    # A row is "no submission" only where no submission may be theirs: a row whose name a
    # submission shares with other rows waits for the instructor (the submission says so).
    settled.missing = [p for p in roster.people
                       if p.lms_id not in claims and p.lms_id not in namesakes]


def _by_name(roster: Roster, item: Found, namesakes: set[str]) -> Person | None:
    """The one row with ``item``'s name; a note when there is none, or several (their ids
    added to ``namesakes``)."""
    named = roster.by_name(item)
    if len(named) > 1:
        namesakes.update(person.lms_id for person in named)
        item.notes.append(f"not matched to the roster: {len(named)} rows of the {roster.kind} "
                          f"gradebook have this name (lines "
                          f"{', '.join(str(p.line) for p in named)})")
    elif not named:
        item.notes.append(f"not on the roster ({roster.kind} gradebook)")
    return named[0] if len(named) == 1 else None


def _take(item: Found, person: Person, kind: str) -> None:
    """``item`` is ``person``'s: the roster's name (shown beside the id), e-mail, ids, time."""
    if person.display_name:
        item.id = named(person.display_name, item.lms_id or person.lms_id)
    item.display_name = person.display_name or item.display_name
    item.email = person.email or item.email
    item.lms.update({k: v for k, v in (("sis_id", person.sis_id),
                                       ("username", person.username),
                                       ("roster_id", person.lms_id)) if v})
    item.lms["roster"] = kind
    if item.submitted_at is None and person.submitted_at is not None:
        item.submitted_at = person.submitted_at
        item.lms["time_from"] = f"{kind} gradebook"


def _localise(item: Found, zone: tzinfo | None) -> None:
    assert item.submitted_at is not None
    if zone is None:
        item.notes.append(f"the export's time {item.submitted_at:%Y-%m-%d %H:%M} has no zone "
                          "and no due date or --timezone gives one: it was not used")
        item.submitted_at = None
        return
    item.submitted_at = item.submitted_at.replace(tzinfo=zone)


def _online_text(item: Found, pack: Pack) -> None:
    """Online text becomes the assignment's one file; with several files it cannot be placed."""
    if item.online_text is None or not item.source.is_dir():
        return
    files = pack.declaration.submission.files
    if len(files) == 1 and not (item.source / files[0]).exists():
        (item.source / files[0]).write_text(item.online_text, encoding="utf-8")
        item.notes.append(f"the online text was graded as `{files[0]}`")
    else:
        (item.source / "onlinetext.txt").write_text(item.online_text, encoding="utf-8")
        item.notes.append("the online text was not graded: the assignment asks for files "
                          f"({', '.join(files)}) and cannot tell which one it is")
    item.online_text = None


def missing_id(person: Person) -> str:
    """The id a roster row without a submission is reported under."""
    return named(person.display_name, person.lms_id)
