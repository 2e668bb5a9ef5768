"""Batch-level guarantees: one student's trouble never touches another's marks, every student
gets exactly one row, and a stored result is reused only under the same grading key."""

from __future__ import annotations

import csv
import json
import re
import shutil
from copy import deepcopy
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

import graders.packs
from graders import outcomes
from graders.batch import BatchRequest, grade_batch
from graders.cli import main
from graders.outcomes import GradeOptions, digest_pack, grading_key, relative_name
from graders.pack import get_pack, load_pack
from graders.report import ReportWriter
from graders.sandbox import Isolation
from graders.submissions import prepare

PACK = get_pack("altnim")
SAMPLES = PACK.fixtures_dir / "submissions"
TIPPY = get_pack("tippy")
TOY_ROOT, TOY = Path(__file__).parents[1] / "toy", "subtract_square"
LONG_EXPRESSION = "X = " + "+".join(["1"] * 200_000) + "\n"
NESTED_UNARY = "Y = " + "-" * 100_000 + "1\n"


def _batch(tmp_path: Path, *names: str) -> Path:
    batch = tmp_path / "batch"
    for name in names:
        shutil.copytree(SAMPLES / name, batch / name)
    return batch


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "marks.csv").open(encoding="utf-8") as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def test_a_report_that_cannot_be_written_is_a_grader_error_for_that_student_only(
    tmp_path: Path, monkeypatch
):
    batch = _batch(tmp_path, "correct", "extra_import", "syntax_error")
    real_write = ReportWriter.write_student

    def failing_write(self, result):
        if result.student == "extra_import":
            raise OSError("disk full")
        real_write(self, result)

    monkeypatch.setattr(ReportWriter, "write_student", failing_write)
    outcome = grade_batch(BatchRequest(pack=PACK, sources=sorted(batch.iterdir()),
                                       out_dir=tmp_path / "reports"))
    results = {result.student: result for result in outcome.results}
    assert results["correct"].total == 100 and results["correct"].status == "graded"
    assert results["syntax_error"].total == 0 and results["syntax_error"].status == "graded"
    assert results["extra_import"].status == "grader-error"
    assert not outcome.ok and "disk full" in " ".join(outcome.grader_errors)


def test_a_file_too_deep_for_the_parser_is_that_students_failure_only(tmp_path: Path):
    # issue 13 point 1: ast.parse raised RecursionError (MemoryError for nested unary
    # operators) outside any guard, and nobody got a report.
    batch = _batch(tmp_path, "correct")
    for name, text in (("long_sum", LONG_EXPRESSION), ("nested_minus", NESTED_UNARY)):
        shutil.copytree(SAMPLES / "correct", batch / name)
        target = batch / name / "myAltNimFunctions.py"
        target.write_text(target.read_text() + text)
    out = tmp_path / "reports"
    outcome = grade_batch(BatchRequest(pack=PACK, sources=sorted(batch.iterdir()), out_dir=out))
    results = {result.student: result for result in outcome.results}
    assert set(results) == {"correct", "long_sum", "nested_minus"}
    assert results["correct"].total == 100
    for name in ("long_sum", "nested_minus"):
        assert results[name].status == "graded", results[name].grader_errors
        syntax = [v for v in results[name].violations if v.rule == "syntax-error"]
        assert syntax and syntax[0].file == "myAltNimFunctions.py" and syntax[0].line
        assert results[name].total < 100
    assert set(_rows(out)) == set(results)


def test_a_marking_failure_costs_that_student_a_row_with_a_reason_not_their_place(
    tmp_path: Path, monkeypatch
):
    # issue 13 point 2: an exception while marking one student was swallowed in pytest's
    # teardown and the student vanished from every report.
    batch = _batch(tmp_path, "correct", "extra_import")
    real = outcomes.mark_criteria

    def failing(pack, tests, violations, **kwargs):
        if any(v.rule == "forbidden-import" for v in violations):
            raise TypeError("can't compare offset-naive and offset-aware datetimes")
        return real(pack, tests, violations, **kwargs)

    monkeypatch.setattr(outcomes, "mark_criteria", failing)
    out = tmp_path / "reports"
    outcome = grade_batch(BatchRequest(pack=PACK, sources=sorted(batch.iterdir()), out_dir=out))
    assert not outcome.ok
    rows = _rows(out)
    assert rows["correct"]["total"] == "100" and rows["extra_import"]["status"] == "grader-error"
    stored = json.loads((out / "students" / "extra_import.json").read_text())
    assert "offset-naive" in " ".join(stored["grader_errors"]) and stored["tests"]
    assert "extra_import" in (out / "index.html").read_text()
    assert {r["student"] for r in json.loads((out / "results.json").read_text())} == set(rows)


def test_a_hyphenated_student_id_does_not_leak_into_case_labels(tmp_path: Path):
    # issue 13 point 8: the case was rebuilt by splitting callspec.id on "-".
    batch = tmp_path / "batch"
    for name in ("smith-john", "plain"):
        shutil.copytree(SAMPLES / "extra_import", batch / name)
    outcome = grade_batch(BatchRequest(pack=PACK, sources=sorted(batch.iterdir())))
    cases = {r.student: sorted((t.name, t.case) for t in r.tests) for r in outcome.results}
    assert cases["smith-john"] == cases["plain"]
    assert not any("smith" in case or "john" in case for _, case in cases["smith-john"])


def test_two_submissions_with_one_student_id_get_two_rows(tmp_path: Path):
    batch = _batch(tmp_path, "correct")
    shutil.make_archive(str(batch / "correct"), "zip", SAMPLES / "extra_import")
    out = tmp_path / "reports"
    outcome = grade_batch(BatchRequest(pack=PACK, sources=sorted(batch.iterdir()), out_dir=out))
    assert sorted(r.student for r in outcome.results) == ["correct", "correct.zip"]
    assert {row["total"] for row in _rows(out).values()} == {"100", "85"}


def test_the_grading_key_changes_with_everything_the_tests_can_find(tmp_path: Path):
    # issue 13 point 4: hidden inputs and isolation were left out. The due date and the hand-in
    # time change only the late deduction, which every reuse recomputes (below, and
    # test_a_rerun_with_another_due_date_changes_the_late_deduction): not in the key.
    submission = prepare(SAMPLES / "correct", PACK, tmp_path / "work")
    options = GradeOptions(isolation=Isolation.BUBBLEWRAP, pack_digest=digest_pack(PACK))
    key = grading_key(PACK, submission, options)
    assert key == grading_key(PACK, submission, options)
    due = datetime.fromisoformat("2024-10-31T23:59:00+00:00")
    assert key == grading_key(PACK, replace(submission, submitted_at=due),
                              replace(options, due=due))
    changed = [
        grading_key(PACK, submission, replace(options, isolation=Isolation.RLIMITS)),
        grading_key(PACK, submission, replace(options, public_only=True)),
        grading_key(PACK, replace(submission, files={"myAltNimFunctions.py": ""}), options),
        grading_key(PACK, submission, replace(options, pack_digest="another")),
    ]
    assert len({key, *changed}) == len(changed) + 1


def test_a_stored_result_is_marked_again_under_a_new_due_date(reference_and_bare,
                                                             tmp_path: Path):
    # tippy: 5 % per started hour. The reference's result (a batch of two, made in seconds:
    # the samples' batch would keep this worker waiting while another grades it).
    submission = prepare(TIPPY.reference_dir, TIPPY, tmp_path / "work")
    submission.submitted_at = datetime.fromisoformat("2024-11-01T01:30:00+00:00")
    options = GradeOptions(isolation=Isolation.BUBBLEWRAP, pack_digest=digest_pack(TIPPY))
    stored = reference_and_bare("tippy")[0]
    assert stored.total == 100 and not stored.deductions
    on_time = replace(options, due=datetime.fromisoformat("2024-11-01T02:00:00+00:00"))
    assert outcomes.remark(TIPPY, deepcopy(stored), submission, on_time) is None
    late = outcomes.remark(TIPPY, deepcopy(stored), submission,
                           replace(options, due=datetime.fromisoformat("2024-11-01T00:00:00Z")))
    assert late is not None and [d.reason for d in late.deductions] == [
        "late by 1 h 30 min: 2 started hour(s) x 5%"]
    assert late.total == 90 and late.tests == stored.tests
    # A TA's override (a criterion set to 0) stays the writer's: the late rule takes its
    # percentage of the grader's own marks, as at the first grading.
    overridden = deepcopy(stored)
    criterion, points = overridden.criteria[0], overridden.criteria[0].earned
    criterion.automatic, criterion.earned = points, 0
    overridden.automatic_total, overridden.total = 100, 100 - points
    again = outcomes.remark(TIPPY, overridden, submission,
                            replace(options, due=datetime.fromisoformat("2024-11-01T00:00:00Z")))
    assert again is not None and again.total == 90 and again.automatic_total is None
    assert again.criteria[0].earned == points > 0 and not again.overrides


def test_hidden_inputs_are_part_of_the_pack_digest(tmp_path: Path):
    root = tmp_path / "root"
    for tree in ("student_templates", "reference_solutions", "fixtures"):
        shutil.copytree(PACK.root / tree / "altnim", root / tree / "altnim")
    pack = get_pack("altnim", root)
    before = digest_pack(pack)
    hidden = root / "fixtures" / "altnim" / "inputs" / "testAltNimHidden.py"
    hidden.write_text(hidden.read_text() + "\n# changed\n")
    assert digest_pack(pack) != before
    assert digest_pack(pack, hidden=False) == digest_pack(get_pack("altnim", root), hidden=False)


def test_the_pack_digest_is_the_same_wherever_the_trees_are(tmp_path: Path):
    """Two copies of a pack's trees at two paths (two checkouts, two cluster workers) give one
    digest; a changed byte in one of them does not."""
    roots = [tmp_path / "one", tmp_path / "elsewhere" / "two"]
    for root in roots:
        for tree in ("student_templates", "reference_solutions", "fixtures"):
            shutil.copytree(PACK.root / tree / "altnim", root / tree / "altnim")
    first, second = (get_pack("altnim", root) for root in roots)
    assert digest_pack(first) == digest_pack(second) == digest_pack(PACK)
    golden = next(path for path in second.golden_dir.iterdir() if path.is_file())
    golden.write_text(golden.read_text() + "changed\n")
    assert digest_pack(first) != digest_pack(second)


def test_a_mutation_score_changes_no_digest(tmp_path: Path):
    """`grade selfcheck --mutants --record` writes into the pack folder; no one is regraded."""
    folder = tmp_path / "packs" / "altnim"
    shutil.copytree(PACK.dir, folder, ignore=shutil.ignore_patterns("__pycache__"))
    pack = load_pack(folder, PACK.root)
    before = digest_pack(pack)
    (folder / "mutation.json").write_text('{"score": 12.5}')
    (folder / "equivalent_mutants.toml").write_text("# none\n")
    assert digest_pack(pack) == before
    (folder / "assignment.toml").write_text((folder / "assignment.toml").read_text() + "\n")
    assert digest_pack(pack) != before


def test_relative_names_come_from_the_deepest_root_holding_the_path():
    roots = [Path("/work/main"), Path("/work/main/tmp/root")]
    assert relative_name(Path("/work/main/graders/batch.py"), roots) == "graders/batch.py"
    assert relative_name(Path("/work/main/tmp/root/fixtures/a/x.py"), roots) == "fixtures/a/x.py"
    assert relative_name(Path("/elsewhere/x.py"), roots) == "/elsewhere/x.py"


@pytest.fixture(scope="module")
def tippy_runs(tmp_path_factory: pytest.TempPathFactory):
    """A tippy class graded twice through `grade --times`, with two due dates, then a third
    time under the second with an extension for late_2h10 (`--extensions`)."""
    tmp = tmp_path_factory.mktemp("tippy")
    batch = tmp / "batch"
    samples = TIPPY.fixtures_dir / "submissions"
    for name in ("correct", "late_2h10"):
        shutil.copytree(samples / name, batch / name)
    liar = tmp / "liar"  # claims an on-time hand-in in its own metadata
    shutil.copytree(samples / "correct", liar)
    (liar / "submission_meta.json").write_text(
        json.dumps({"submitted_at": "2015-03-05T21:00:00-05:00"})
    )
    shutil.make_archive(str(batch / "liar"), "zip", liar)
    shutil.copytree(samples / "correct", batch / "long_sum")
    move = batch / "long_sum" / "tippy_move.py"
    move.write_text(move.read_text() + LONG_EXPRESSION)
    times = tmp / "times.csv"
    times.write_text("student,submitted_at\nlate_2h10,2015-03-06T00:10:00-05:00\n"
                     "liar,2015-03-06T00:10:00-05:00\n")
    extended = tmp / "extensions.csv"
    extended.write_text("student,due\nlate_2h10,2015-03-06T01:00:00-05:00\n")
    out = tmp / "reports"
    codes, rows, logs = [], [], []
    for due, more in (("2015-03-05T22:00:00-0500", []), ("2015-03-05T23:30:00-0500", []),
                      ("2015-03-05T23:30:00-0500", ["--extensions", str(extended)])):
        codes.append(main([str(batch), "-a", "tippy", "--out", str(out), "--due", due,
                           "--times", str(times), *more]))
        rows.append(_rows(out))
        logs.append((out / "grade.log").read_text(encoding="utf-8"))
    return codes, rows, out, logs


@pytest.mark.long  # tippy_runs grades a class twice
def test_one_pathological_file_cannot_stop_the_class(tippy_runs):
    # issue 13 "done when": the correct student gets 100, the other one a row with a reason.
    _, (rows, *_), out, _ = tippy_runs
    assert set(rows) == {"correct", "late_2h10", "liar", "long_sum"}
    assert rows["correct"]["total"] == "100" and rows["correct"]["status"] == "graded"
    stored = json.loads((out / "students" / "long_sum.json").read_text())
    assert [v["message"] for v in stored["violations"] if v["rule"] == "syntax-error"]
    assert "syntax-error" in rows["long_sum"]["violations"]


def test_a_rerun_with_another_due_date_changes_the_late_deduction(tippy_runs):
    # issue 13 point 4: the old key left the due date out and kept the old deduction.
    codes, (first, second, _), _, (_, log, _) = tippy_runs
    assert codes == [0, 0, 0]
    assert first["late_2h10"]["total"] == "85"  # 2 h 10 min late: 3 started hours x 5 %
    assert second["late_2h10"]["total"] == "95"  # 40 min late: 1 started hour
    assert second["correct"]["total"] == "100"
    # The tests' findings stand: nobody is graded a second time, the new due date marks the
    # two late students' stored results again.
    again = "; marked again for this run's due date"
    reused = re.findall(r"reuse: (\S+): unchanged since \S+?(;.*)?$", log, re.M)
    assert sorted(reused) == [("correct", ""), ("late_2h10", again), ("liar", again),
                              ("long_sum", "")], log


def test_an_extension_moves_that_students_due_date_only(tippy_runs):
    """`--extensions` gives late_2h10 until 1 a.m.: on time by its own due date, and its
    report says why (a note, so that student is graded again); the liar, late by the batch's
    due date, keeps its deduction and its stored result."""
    codes, (_, second, third), out, (_, _, log) = tippy_runs
    assert codes[2] == 0 and third["late_2h10"]["total"] == "100"
    assert third["liar"]["total"] == second["liar"]["total"] == "95"
    assert "reuse: liar: unchanged since" in log and "reuse: late_2h10" not in log
    stored = json.loads((out / "students" / "late_2h10.json").read_text())
    assert not stored["deductions"]
    assert any("an extension, from --extensions" in v["message"] for v in stored["violations"])


def test_an_extensions_file_naming_nobody_is_refused_at_start_up(tmp_path: Path, capsys):
    batch = _batch(tmp_path, "correct")
    extended = tmp_path / "extensions.csv"
    extended.write_text("student,due\nnobody,2015-03-06T01:00:00-05:00\n")
    assert main([str(batch), "-a", "tippy", "--out", str(tmp_path / "r"),
                 "--extensions", str(extended)]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert f"--extensions {extended}, line 2: no submission is called 'nobody'" in said


def test_a_students_own_time_file_is_ignored_named_and_cannot_change_the_deduction(tippy_runs):
    # issue 15 point 3: the zip claims an on-time hand-in; --times says 2 h 10 min late.
    _, (first, second, _), out, _ = tippy_runs
    assert first["liar"]["total"] == "85" and second["liar"]["total"] == "95"
    stored = json.loads((out / "students" / "liar.json").read_text())
    ignored = [v for v in stored["violations"] if v["rule"] == "ignored-file"]
    assert ignored and ignored[0]["file"] == "submission_meta.json"
    assert "never from a file in the hand-in" in ignored[0]["message"]
    assert "submission_meta.json" in (out / "students" / "liar.html").read_text()


def test_a_times_file_with_a_naive_time_is_refused_at_start_up_naming_its_line(
    tmp_path: Path, capsys
):
    batch = _batch(tmp_path, "correct")
    times = tmp_path / "times.csv"
    times.write_text("student,submitted_at\ncorrect,2015-03-05T21:00:00\n")
    out = tmp_path / "reports"
    assert main([str(batch), "--out", str(out), "--times", str(times)]) == 2
    error = capsys.readouterr().err
    assert f"{times}, line 2:" in error and "no timezone" in error
    assert not out.exists()


def test_a_start_up_error_shows_its_path_whole_even_with_brackets_in_it(tmp_path: Path, capsys):
    """The message is printed as it is: never read as console markup, never wrapped."""
    batch = _batch(tmp_path, "correct")
    folder = tmp_path / ("[bold]x[red] " + "long-folder-name-" * 6)
    folder.mkdir()
    times = folder / "times.csv"
    times.write_text("student,submitted_at\ncorrect,2015-03-05T21:00:00\n")
    assert main([str(batch), "--out", str(tmp_path / "out"), "--times", str(times)]) == 2
    assert f"{times}, line 2:" in capsys.readouterr().err


def test_a_times_file_naming_nobody_is_refused_at_start_up(tmp_path: Path, capsys):
    batch = _batch(tmp_path, "correct")
    times = tmp_path / "times.csv"
    times.write_text("student,submitted_at\ncorrect,2015-03-05T21:00:00Z\ncorect,"
                     "2015-03-05T21:00:00Z\n")
    assert main([str(batch), "--out", str(tmp_path / "reports"), "--times", str(times)]) == 2
    error = " ".join(capsys.readouterr().err.split())
    assert "line 3: no submission is called 'corect'" in error


def test_a_pack_test_module_that_cannot_be_imported_is_a_grader_error_not_an_interrupt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """pytest reports a collection error as INTERRUPTED: the batch must still finish, with
    every student's row a grader error naming the broken module (a pack bug)."""
    root, broken = tmp_path / "root", "broken_toy"  # the toy under an id of its own
    for tree in ("packs", "fixtures", "reference_solutions", "student_templates"):
        shutil.copytree(TOY_ROOT / tree / TOY, root / tree / broken,
                        ignore=shutil.ignore_patterns("__pycache__", "*.py[co]"))
    declaration = root / "packs" / broken / "assignment.toml"
    declaration.write_text(declaration.read_text().replace(f'id = "{TOY}"', f'id = "{broken}"'))
    (root / "packs" / broken / "test_broken.py").write_text("import no_such_module_here\n")
    monkeypatch.setenv("GRADERS_ROOT", str(root))
    monkeypatch.setattr(graders.packs, "__path__", list(graders.packs.__path__))
    pack = get_pack(broken, root)
    sample = root / "fixtures" / broken / "submissions" / "do_nothing"
    [result] = grade_batch(BatchRequest(pack=pack, sources=[sample], write_index=False)).results
    assert result.status != "graded"
    assert any("test_broken.py" in error and "no_such_module_here" in error
               for error in result.grader_errors), result.grader_errors
