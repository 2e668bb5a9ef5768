"""The gradebook on SQLite: migrations, append-only runs, why marks moved, history, the
overrides file as export and import, the term page, pages rebuilt and the term's export."""

from __future__ import annotations

import concurrent.futures
import csv
import multiprocessing as mp
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa

from graders import overrides
from graders.cli import main
from graders.gradebook import open_gradebook
from graders.gradebook.changes import last_changes
from graders.gradebook.pages import history_of, write_term
from graders.gradebook.store import FILE_NAME, Gradebook, url_for
from graders.gradebook.sync import sync_overrides

from .build import PACKS, record, result


@pytest.fixture
def book(tmp_path: Path) -> Gradebook:
    opened = open_gradebook(None, tmp_path)
    yield opened
    opened.close()


def test_the_default_is_an_sqlite_file_in_the_reports_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("GRADERS_GRADEBOOK", raising=False)
    assert url_for(None, tmp_path) == f"sqlite:///{tmp_path / FILE_NAME}"
    monkeypatch.setenv("GRADERS_GRADEBOOK", "postgresql://ta@db.example/course")
    assert url_for(None, tmp_path) == "postgresql+psycopg://ta@db.example/course"
    assert url_for(str(tmp_path / "x.sqlite"), tmp_path) == f"sqlite:///{tmp_path / 'x.sqlite'}"


def test_opening_migrates_to_the_latest_version_once(book: Gradebook, tmp_path):
    tables = set(sa.inspect(book.engine).get_table_names())
    assert {"assignment", "student", "run", "result", "mark", "outcome", "override",
            "alembic_version"} <= tables
    with book.engine.connect() as connection:
        assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).all() == [
            ("0003",)]
    again = Gradebook(book.url)  # at head already: nothing to do
    assert again.assignments() == []
    again.close()


def test_a_regrade_adds_a_run_and_keeps_every_earlier_mark(book: Gradebook):
    record(book, [result("altnim", "alice", 0.5), result("altnim", "bob")])
    record(book, [result("altnim", "alice", 0.8), result("altnim", "bob")], pack="p2")
    runs = book.runs("altnim")
    assert [[(r.name, r.total) for r in run.results] for run in runs] == [
        [("alice", 50.0), ("bob", 100.0)], [("alice", 80.0), ("bob", 100.0)]]
    first = runs[0].results[0]
    assert {m.criterion: m.earned for m in first.marks}["minimax"] == 15.0
    assert book.body(first)["total"] == 50.0  # the engine's JSON, whole
    with book.session() as session:  # bob's unchanged result is stored once
        assert session.scalar(sa.text("SELECT count(*) FROM blob")) == 3
        assert session.scalar(sa.text("SELECT count(*) FROM outcome")) == 4


def test_a_pack_change_lists_exactly_the_students_whose_marks_moved(book: Gradebook):
    record(book, [result("altnim", n) for n in ("alice", "bob", "carol")], pack="p1")
    record(book, [result("altnim", "alice", 0.5), result("altnim", "bob"),
                  result("altnim", "carol", 0.9)], pack="p2")
    changes = last_changes(book.runs("altnim"))
    assert changes is not None
    assert [(c.name, c.before, c.after, c.why) for c in changes] == [
        ("alice", 100.0, 50.0, "the pack changed"), ("carol", 100.0, 90.0, "the pack changed")]
    assert ("eval", 15.0, 7.5) in changes[0].criteria


@pytest.mark.parametrize("before, after, facts, why", [
    ({}, {"code": "v2"}, {}, "their code changed"),
    ({}, {"submitted_at": "2026-10-01T15:00:00+00:00"}, {}, "their submission time changed"),
    ({}, {}, {"due": "2026-10-03T00:00:00+00:00"}, "the due date changed"),
    ({}, {"lms": {"layout": "moodle", "due": "2026-10-04T00:00:00+00:00"}}, {},
     "their own due date changed (an extension)"),
    ({}, {}, {"harness": "h2"}, "the grader changed"),
    ({}, {}, {}, "regraded with no input changed (a time limit or a flaky test?)"),
    ({}, {"status": "grader-error"}, {},
     "grading failed for them this time (a grader error, not their work)"),
])
def test_each_reason_is_the_input_that_changed(book, before, after, facts, why):
    record(book, [result("altnim", "alice", **before)])
    record(book, [result("altnim", "alice", 0.5, **after)], **facts)
    assert [c.why for c in last_changes(book.runs("altnim")) or []] == [why]


def test_an_override_is_a_reason_and_history_traces_every_mark(book: Gradebook):
    record(book, [result("altnim", "alice", 0.5)])
    entry = overrides.Override("alice", "eval", 15.0, "sign slip", "TA Kim",
                               "2026-10-03T00:00:00+00:00", "c0de")
    book.add_override("altnim", entry, 7.5)
    moved = result("altnim", "alice", 0.5)
    overrides.apply(moved, [entry])
    record(book, [moved])
    assert [c.why for c in last_changes(book.runs("altnim")) or []] == ["an override"]
    found = history_of(book, "altnim", "alice")
    assert [(e.total, e.automatic, e.said) for e in found.entries] == [
        (50.0, 50.0, "first graded"), (57.5, 50.0, "total 50 → 57.5; eval 7.5 → 15 (an override)")]
    lines = found.lines()
    assert "run 1" in lines[1] and "pack p1" in lines[1] and "grader h1" in lines[1]
    assert lines[-1].endswith("eval 7.5 → 15 (sign slip)")


def test_the_overrides_file_is_imported_and_exported_keeping_hand_written_lines(
        book: Gradebook, tmp_path):
    folder = tmp_path / "altnim"
    folder.mkdir()
    path = folder / overrides.FILE_NAME
    path.write_text('# my notes\n[[override]]\nstudent = "bob"\ncriterion = "eval"\npoints = 3\n'
                    'comment = "by hand"\nby = "me"\nat = "2026-01-01T00:00:00+00:00"\n')
    other = overrides.Override("carol", "total", 50.0, "agreed", "TA Lee",
                               "2026-01-02T00:00:00+00:00", "abc")
    book.add_override("altnim", other, 40.0)
    assert sync_overrides(book, "altnim", folder) == []
    assert [e.student for e in book.overrides("altnim")] == ["carol", "bob"]
    text = path.read_text()
    assert text.startswith("# my notes\n")
    assert [e.student for e in overrides.load(path)[0]] == ["bob", "carol"]
    sync_overrides(book, "altnim", folder)  # nothing new either way
    assert path.read_text() == text and len(book.overrides("altnim")) == 2


def test_a_first_version_gradebook_keeps_its_overrides_and_learns_lms_ids(tmp_path):
    from alembic import command
    from alembic.config import Config

    from graders.gradebook.store import MIGRATIONS

    book = open_gradebook(None, tmp_path)
    old = overrides.Override("bob", "eval", 3.0, "by hand", "me", "2026-01-01T00:00:00+00:00")
    book.add_override("altnim", old, 1.0)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with book.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
    assert "lms_id" not in {c["name"] for c in sa.inspect(book.engine).get_columns("override")}
    book.close()
    again = open_gradebook(None, tmp_path)  # opening migrates to the latest version
    assert again.overrides("altnim") == [old]
    again.add_override("altnim", replace(old, lms_id="s-7"), 1.0)
    assert [e.lms_id for e in again.overrides("altnim")] == ["", "s-7"]
    again.close()


def test_the_term_page_shows_every_assignment_for_the_class(book: Gradebook, tmp_path):
    for pack in PACKS:
        record(book, [result(pack, "alice", 0.9, late=2.0), result(pack, "bob", 0.5)])
    record(book, [result("pnt", "alice", 0.9, late=2.0), result("pnt", "bob", 0.7)],
           pack="p2")
    html = write_term(book, tmp_path).read_text()
    for pack in PACKS:
        assert f'<a href="{pack}/index.html">' in html
        assert f'href="{pack}/students/alice.html"' in html
        assert f'href="history/{pack}/bob.html"' in html
    assert html.count("late −2") == 5
    assert "marks changed since the last run: 1 students" in html
    assert "changed: the pack changed" in html
    assert (tmp_path / "history" / "pnt" / "bob.html").is_file()


def test_the_term_page_never_replaces_an_assignments_class_page(book: Gradebook, tmp_path):
    """A run with --out keeps its gradebook in that assignment folder: the term page written
    there is term.html, the class page (index.html) stays."""
    record(book, [result("altnim", "alice", 0.5)])
    (tmp_path / "index.html").write_text("<title>altNim: class results</title>")
    for name in ("marks.csv", "results.json"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert write_term(book, tmp_path) == tmp_path / "term.html"
    assert (tmp_path / "index.html").read_text() == "<title>altNim: class results</title>"
    assert "The term" in (tmp_path / "term.html").read_text()


def test_grade_gradebook_rebuilds_a_deleted_assignment_folder(book: Gradebook, tmp_path):
    alice = result("altnim", "alice", 0.5)
    record(book, [alice, result("altnim", "bob")])
    entry = overrides.Override("alice", "eval", 15.0, "sign slip", "TA Kim",
                               "2026-10-03T00:00:00+00:00", overrides.code_digest(alice.files))
    book.add_override("altnim", entry, 7.5)
    reports = tmp_path
    assert main(["gradebook", "--reports", str(reports)]) == 0
    folder = reports / "altnim"
    first = {p.relative_to(folder) for p in folder.rglob("*") if p.is_file()}
    assert {Path("index.html"), Path("results.json"), Path("marks.csv"),
            Path("students/alice.html"), Path("students/bob.json")} <= first
    shutil.rmtree(folder)
    assert main(["gradebook", "--reports", str(reports)]) == 0
    assert {p.relative_to(folder) for p in folder.rglob("*") if p.is_file()} == first
    rows = {r["student"]: r for r in csv.DictReader((folder / "marks.csv").open())}
    assert (rows["alice"]["total"], rows["alice"]["automatic_total"]) == ("57.5", "50")
    assert "sign slip" in (folder / "students" / "alice.html").read_text()
    assert "57.5 / 100" in (reports / "index.html").read_text()


def test_the_term_is_exported_for_the_lms(book: Gradebook, tmp_path, capsys):
    for pack in ("altnim", "pnt"):
        record(book, [result(pack, "alice", 0.9), result(pack, "bob", 0.5)])
    book.add_override("pnt", overrides.Override("bob", "total", 60.0, "agreed", "TA Lee",
                                                "2026-10-03T00:00:00+00:00", ""), 50.0)
    assert main(["export", "--term", "--format", "moodle", "--reports", str(tmp_path)]) == 0
    out = tmp_path / "term-moodle"
    grades = {p: list(csv.DictReader((out / p / "moodle-grades.csv").open()))
              for p in ("altnim", "pnt")}
    assert [row["Grade"] for row in grades["pnt"]] == ["90", "60"]
    assert [row["Grade"] for row in grades["altnim"]] == ["90", "50"]
    assert (out / "pnt" / "moodle-feedback.zip").is_file()
    assert main(["export", "altnim", "--term", "--format", "moodle"]) == 2


def test_a_gradebook_that_cannot_be_opened_stops_the_command(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("")
    url = f"sqlite:///{blocked / 'sub' / 'gradebook.sqlite'}"
    assert main(["gradebook", "--reports", str(tmp_path), "--gradebook", url]) == 2
    assert "cannot open the gradebook" in capsys.readouterr().err


def test_changes_ignore_students_new_in_the_run(book: Gradebook):
    record(book, [result("altnim", "alice")])
    record(book, [result("altnim", "alice"), replace(result("altnim", "zed"), total=1.0)])
    assert last_changes(book.runs("altnim")) == []


def _open_and_record(folder: str, name: str) -> int:
    book = open_gradebook(None, Path(folder))
    record(book, [result("altnim", name)])
    count = len(book.runs("altnim"))
    book.close()
    return count


def test_two_runs_sharing_a_new_sqlite_file_both_land(tmp_path):
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=mp.get_context("spawn")) as pool:
        done = list(pool.map(_open_and_record, [str(tmp_path)] * 2, ["alice", "bob"]))
    assert sorted(done)[-1] == 2
    book = open_gradebook(None, tmp_path)
    assert sorted(r.name for run in book.runs("altnim") for r in run.results) == ["alice", "bob"]
    book.close()


def test_history_finds_a_student_by_name_even_after_they_left_the_class(book, tmp_path, capsys):
    record(book, [result("altnim", "alice", 0.5), result("altnim", "bob")])
    record(book, [result("altnim", "bob", 0.5)], pack="p2")
    assert main(["history", "altnim", "Alice", "--reports", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "altnim: alice (Alice)" in said and "50/100" in said
    assert (tmp_path / "history" / "altnim" / "alice.html").is_file()
    assert main(["history", "altnim", "id-bob", "--reports", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "total 100 → 50; output 30 → 15" in said and "(the pack changed)" in said
    assert main(["history", "altnim", "zoe", "--reports", str(tmp_path)]) == 2


def test_a_hand_written_overrides_file_is_imported_and_shown(book, tmp_path, capsys):
    record(book, [result("altnim", "alice", 0.5)])
    assert main(["gradebook", "--reports", str(tmp_path)]) == 0
    written = tmp_path / "by-hand.toml"
    written.write_text('[[override]]\nstudent = "alice"\ncriterion = "total"\npoints = 70\n'
                       'comment = "late pass"\nby = "Prof"\nat = "2026-10-05T00:00:00+00:00"\n')
    assert main(["gradebook", "--reports", str(tmp_path), "--import-overrides", str(written),
                 "-a", "altnim"]) == 0
    assert "altnim: 1 override(s) imported" in capsys.readouterr().out
    assert [(o.by, o.points) for o in book.override_rows("altnim")] == [("Prof", 70.0)]
    rows = {r["student"]: r for r in csv.DictReader((tmp_path / "altnim" / "marks.csv").open())}
    assert rows["alice"]["total"] == "70"
    assert main(["gradebook", "--reports", str(tmp_path), "--import-overrides",
                 str(written)]) == 2  # which assignment?


def test_the_postgresql_tests_say_why_they_are_skipped(monkeypatch):
    from . import conftest

    monkeypatch.setattr(conftest, "pg_ctl", lambda: None)
    assert "no pg_ctl on this machine" in (conftest._why_not() or "")


def test_the_migrations_go_down_to_nothing_and_up_again(book: Gradebook):
    from alembic import command
    from alembic.config import Config

    from graders.gradebook.store import MIGRATIONS

    record(book, [result("altnim", "alice")])
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with book.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert set(sa.inspect(book.engine).get_table_names()) == {"alembic_version"}
    again = Gradebook(book.url)
    assert again.assignments() == [] and "override" in sa.inspect(again.engine).get_table_names()
    again.close()


def test_an_empty_gradebook_exports_nothing_and_says_so(tmp_path, capsys):
    assert main(["export", "--term", "--format", "canvas", "--reports", str(tmp_path)]) == 2
    assert "holds no run yet" in capsys.readouterr().err
