"""Reports without a browser: JSON twins, marks.csv, atomic writes, template safety, views."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import re
from dataclasses import asdict, replace
from html.parser import HTMLParser
from pathlib import Path

import jinja2
import pytest

from graders import golden
from graders.pack import get_pack
from graders.report import (
    ReportWriter,
    environment,
    marks_csv,
    similar,
    source,
    stats,
    views,
    write_atomic,
)
from graders.results import (
    CriterionMark,
    Deduction,
    SubmissionResult,
    ViolationRecord,
    results_json,
)
from graders.results import TestOutcome as Outcome  # not "Test*": pytest would collect it
from graders.sandbox import Isolation
from graders.submissions import slugify

HOSTILE = "<script>alert(1)</script>"

SAMPLES = "altnim"  # the pack whose graded samples these tests read


@pytest.fixture(scope="module")
def samples(graded_samples):
    return graded_samples(SAMPLES)


def full_result(student: str = "Zoë O'Brien, \"ZB\"", **changes) -> SubmissionResult:
    """A result with every field set, including awkward values."""
    result = SubmissionResult(
        student=student, assignment="altnim", assignment_title="altNim MiniMax",
        status="graded", isolation="bubblewrap", total=26.25, max_total=100.0,
        criteria=[
            CriterionMark(id="output", title="out.script", points=30.0, earned=0.0, passed=0,
                          total=1, notes=["some tests could not run"]),
            CriterionMark(id="helpers", title="helpers", points=15.0, earned=11.25, passed=3,
                          total=4),
        ],
        deductions=[Deduction(reason="Forbidden import (2 places)", points=15.0)],
        tests=[
            Outcome(name="test_out_script", case="", outcome="failed", public=True,
                        message="differs at line 24",
                        details={"kind": "text-diff", "what": "out", "mode": "exact",
                                 "first_difference": 24, "truncated": False,
                                 "rows": [{"tag": "replace", "left_no": 24, "left": "= 1000",
                                           "right_no": 24, "right": "= -1000"},
                                          {"tag": "insert", "left_no": None, "left": "",
                                           "right_no": 25, "right": "extra ✓"}]},
                        seconds=0.12),
            Outcome(name="test_apply", case="State(3, True, 0)", outcome="passed",
                        public=False, seconds=0.0),
            Outcome(name="test_minimax", case="", outcome="skipped", public=False),
        ],
        violations=[
            ViolationRecord(rule="forbidden-import", title="Forbidden import",
                            file="myAltNimFunctions.py", message="`import math`", line=10,
                            source_line="import math", fix="Delete it.", deduction=15.0),
            ViolationRecord(rule="forbidden-import", title="Forbidden import",
                            file="myAltNimFunctions.py", message="`import os`", line=11,
                            source_line="import os", fix=None, deduction=15.0),
            ViolationRecord(rule="source-encoding", title="Not UTF-8",
                            file="myAltNimFunctions.py", message="read as cp1252"),
        ],
        files={"myAltNimFunctions.py": "import math\nimport os\n# café\n"},
        grader_errors=[],
        digest="abc123",
        graded_at="2026-01-01T00:00:00+00:00",
        seconds=0.12,
        mode="full",
    )
    return replace(result, **changes)


def rendered(tmp_path: Path, *results: SubmissionResult) -> Path:
    writer = ReportWriter(tmp_path, get_pack("altnim"))
    for result in results:
        writer.write_student(result)
    writer.write_index(list(results), Isolation.BUBBLEWRAP)
    return tmp_path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith(".tmp"))


# -- JSON twins -----------------------------------------------------------------------------


def test_every_sample_json_twin_round_trips(samples):
    outcome, report_dir = samples
    assert outcome.results
    for result in outcome.results:
        assert SubmissionResult.from_dict(json.loads(result.to_json())) == result
        twin = report_dir / "students" / f"{slugify(result.student)}.json"
        assert SubmissionResult.from_dict(json.loads(twin.read_text(encoding="utf-8"))) == result
        assert twin.with_suffix(".html").is_file()


def test_full_hand_built_result_round_trips():
    result = full_result()
    again = SubmissionResult.from_dict(json.loads(result.to_json()))
    assert again == result
    assert isinstance(again.tests[0], Outcome) and isinstance(again.violations[0],
                                                                  ViolationRecord)
    assert again.violations[2].line is None and again.tests[0].details["rows"][1]["left_no"] is None
    assert again.to_json() == result.to_json()


def test_results_json_holds_every_result(samples):
    outcome, report_dir = samples
    data = json.loads((report_dir / "results.json").read_text(encoding="utf-8"))
    assert [SubmissionResult.from_dict(item) for item in data] == outcome.results


@pytest.mark.parametrize("count", [0, 1, 3])
def test_results_json_is_written_piece_by_piece_as_one_dump_would_write_it(count, tmp_path):
    """A class of 1,000 never holds all of results.json at once, and its bytes are those of
    the one ``json.dumps`` of every result they replace."""
    results = [full_result(student=f"s{index}") for index in range(count)]
    pieces = list(results_json(results))
    assert len(pieces) == count + 1
    whole = json.dumps([json.loads(r.to_json()) for r in results], indent=1)
    assert "".join(pieces) == whole
    write_atomic(tmp_path / "results.json", iter(pieces))
    assert (tmp_path / "results.json").read_text(encoding="utf-8") == whole


def test_cached_result_is_reused_only_when_graded_from_the_same_inputs(tmp_path):
    result = full_result(student="alice", digest="d1")
    rendered(tmp_path, result)
    writer = ReportWriter(tmp_path, get_pack("altnim"))
    assert writer.cached("alice", "d1") == result
    assert writer.cached("alice", "d2") is None
    assert writer.cached("bob", "d1") is None
    rendered(tmp_path, replace(result, status="grader-error"))
    assert writer.cached("alice", "d1") is None  # a grader error is always regraded


# -- marks.csv ------------------------------------------------------------------------------


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_marks_csv_columns_and_values_for_the_samples(samples):
    outcome, report_dir = samples
    criteria = [c.id for c in get_pack("altnim").declaration.criteria]
    text = (report_dir / "marks.csv").read_text(encoding="utf-8")
    header = next(csv.reader(io.StringIO(text)))
    assert header == ["student", "total", "max", *criteria, "deductions", "status", "violations",
                      "automatic_total", "overrides"]
    rows = read_csv(text)
    assert [row["student"] for row in rows] == [r.student for r in outcome.results]
    by_student = {row["student"]: row for row in rows}
    for result in outcome.results:
        row = by_student[result.student]
        assert float(row["total"]) == pytest.approx(result.total)
        assert float(row["max"]) == result.max_total == 100
        for mark in result.criteria:
            assert float(row[mark.id]) == pytest.approx(mark.earned)
        assert float(row["deductions"]) == pytest.approx(sum(d.points for d in result.deductions))
        assert row["status"] == result.status
        assert row["violations"] == "; ".join(sorted({v.rule for v in result.violations}))
    assert by_student["wrong_eval_sign"] == {
        "student": "wrong_eval_sign", "total": "15", "max": "100", "output": "0", "game": "0",
        "helpers": "15", "eval": "0", "minimax": "0", "deductions": "0", "status": "graded",
        "violations": "", "automatic_total": "15", "overrides": ""}
    assert by_student["extra_import"]["deductions"] == "15"
    assert by_student["extra_import"]["violations"] == "forbidden-import"
    expected = get_pack("altnim").fixtures_dir / "submissions" / "action_state_not_advanced"
    total = json.loads((expected / "expected.json").read_text(encoding="utf-8"))["total"]
    assert by_student["action_state_not_advanced"]["total"] == f"{total:g}"


def test_marks_csv_quotes_names_dedups_rules_and_zeroes_missing_criteria():
    broken = full_result(student="bob", status="grader-error", criteria=[], total=0.0,
                         deductions=[], violations=[])
    text = marks_csv([full_result(), broken], ["output", "helpers", "eval"])
    rows = read_csv(text)
    assert rows[0] == {
        "student": "Zoë O'Brien, \"ZB\"", "total": "26.25", "max": "100", "output": "0",
        "helpers": "11.25", "eval": "0", "deductions": "15", "status": "graded",
        "violations": "forbidden-import; source-encoding", "automatic_total": "26.25",
        "overrides": ""}
    assert rows[1]["status"] == "grader-error" and rows[1]["eval"] == "0"
    assert text.count("\n") == 3  # header + two rows: the quoted comma split nothing


# -- atomic writes --------------------------------------------------------------------------


def test_write_atomic_replaces_and_leaves_no_temp_files(tmp_path):
    target = tmp_path / "deep" / "er" / "index.html"
    write_atomic(target, "old\n")
    write_atomic(target, "new\r\nline ✓\n")
    assert target.read_bytes() == "new\r\nline ✓\n".encode()  # no newline translation
    assert sorted(p.name for p in target.parent.iterdir()) == ["index.html"]


def test_reports_take_the_umask_permissions_so_a_ta_can_read_them(tmp_path):
    # issue 13 point 6: mkstemp made every report 0600 whatever the umask.
    previous = os.umask(0o022)
    try:
        rendered(tmp_path / "out", full_result(student="ta"))
    finally:
        os.umask(previous)
    files = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert len(files) == 5  # index.html, marks.csv, results.json, the student's html + json
    for path in [*files, *(p for p in (tmp_path / "out").rglob("*") if p.is_dir())]:
        assert path.stat().st_mode & 0o044 == 0o044, path


def test_write_atomic_reaches_the_disk_before_the_rename(tmp_path, monkeypatch):
    # issue 13 point 10: the rename could land before the bytes (an empty report after a crash).
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(
        os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1]
    )
    write_atomic(tmp_path / "index.html", "text")
    assert events == ["fsync", "replace"]


def test_golden_files_are_written_atomically(tmp_path, monkeypatch):
    # issue 13 point 10: golden.py wrote in place; a stopped `grade golden` left half a file.
    target = tmp_path / "out.script"
    target.write_text("old\n")
    monkeypatch.setattr(golden, "render_golden", lambda pack: {target: "new\n"})
    replaced = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (replaced.append(Path(b)), real_replace(a, b)))
    assert golden.write_golden(get_pack("altnim")) == [target]
    assert replaced == [target] and target.read_text() == "new\n"


def test_write_atomic_failure_keeps_the_old_file(tmp_path):
    target = tmp_path / "marks.csv"
    write_atomic(target, "old")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, "half written \ud800 then boom")  # fails mid-write
    assert target.read_text(encoding="utf-8") == "old"
    assert leftovers(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["marks.csv"]


def test_failing_render_leaves_the_old_report_intact(tmp_path):
    good = full_result(student="alice")
    rendered(tmp_path, good)
    page = tmp_path / "students" / "alice.html"
    twin = page.with_suffix(".json")
    index = tmp_path / "index.html"
    before = {path: path.read_bytes() for path in (page, twin, index, tmp_path / "marks.csv")}
    # A deduction where a criterion should be: the template asks for .title, which is missing.
    bad = replace(good, criteria=[Deduction(reason="x", points=1.0)])
    writer = ReportWriter(tmp_path, get_pack("altnim"))
    with pytest.raises((jinja2.UndefinedError, AttributeError)):
        writer.write_student(bad)
    with pytest.raises((jinja2.UndefinedError, AttributeError)):
        writer.write_index([good, replace(bad, tests=[object()])], Isolation.BUBBLEWRAP)
    assert {path: path.read_bytes() for path in before} == before
    assert leftovers(tmp_path) == []


# -- template safety ------------------------------------------------------------------------


def test_strict_undefined_catches_template_typos():
    env = environment()
    assert env.undefined is jinja2.StrictUndefined
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ reslut.total }}").render(result=full_result())
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ r.totl|pts }}").render(r=full_result())
    with pytest.raises(jinja2.UndefinedError):  # the real template, one variable missing
        env.get_template("student.html.j2").render(r=full_result())
    with pytest.raises(jinja2.UndefinedError):
        env.get_template("index.html.j2").render(results=[], pack=get_pack("altnim"),
                                                 criteria=[], max_total=100)


def test_autoescape_is_on_for_strings_and_templates(tmp_path):
    env = environment()
    assert env.from_string("{{ x }}").render(x="<b a=\"1\">&'") == \
        "&lt;b a=&#34;1&#34;&gt;&amp;&#39;"
    for name in ("student.html.j2", "index.html.j2", "base.html.j2"):
        assert env.autoescape(name) is True
    hostile = full_result(student=HOSTILE, files={"f.py": f"x = '{HOSTILE}'\n"},
                          grader_errors=[HOSTILE], status="grader-error")
    out = rendered(tmp_path, hostile)
    page = (out / "students" / f"{slugify(HOSTILE)}.html").read_text(encoding="utf-8")
    index = (out / "index.html").read_text(encoding="utf-8")
    for html in (page, index):
        assert HOSTILE not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert html.count("<script>") == 1  # the report's own script only


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.tags: set[str] = set()
        self.scripts: list[str] = []
        self.csp = ""
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        values = dict(attrs)
        self.refs += [value or "" for key, value in attrs if key in ("href", "src", "action")]
        if tag == "meta" and values.get("http-equiv") == "Content-Security-Policy":
            self.csp = values.get("content") or ""
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)


def test_reports_are_self_contained_and_the_script_matches_its_hash(samples):
    _, report_dir = samples
    pages = [report_dir / "index.html", *sorted((report_dir / "students").glob("*.html"))]
    for page in pages:
        parser = _Refs()
        parser.feed(page.read_text(encoding="utf-8"))
        assert not parser.tags & {"link", "img", "iframe", "object", "embed", "base"}, page
        for ref in parser.refs:
            assert not re.match(r"^[a-z][a-z0-9+.-]*:|^//", ref, re.IGNORECASE), (page, ref)
            target = ref.split("#")[0]
            assert not target or (page.parent / target).is_file(), (page, ref)
        assert "default-src 'none'" in parser.csp
        assert len(parser.scripts) == 1
        digest = base64.b64encode(hashlib.sha256(parser.scripts[0].encode()).digest()).decode()
        assert f"script-src 'sha256-{digest}'" in parser.csp, page


# -- display helpers ------------------------------------------------------------------------


def rows(tags: str) -> list[dict]:
    """Diff rows from a string of tags: '=' equal, 'r' replace, '-' delete, '+' insert."""
    names = {"=": "equal", "r": "replace", "-": "delete", "+": "insert"}
    return [{"tag": names[t], "left_no": i + 1, "left": f"line {i}", "right_no": i + 1,
             "right": f"line {i}" if t == "=" else f"LINE {i}"} for i, t in enumerate(tags)]


def test_diff_blocks_fold_unchanged_runs_but_keep_context():
    blocks = views.diff_blocks(rows("=" * 20 + "r" + "=" * 20), context=3)
    assert [(b["folded"], len(b["rows"])) for b in blocks] == [(True, 17), (False, 7), (True, 17)]
    shown = blocks[1]["rows"]
    assert [r["first"] for r in shown] == [False, False, False, True, False, False, False]
    assert [r["left_no"] for r in shown] == list(range(18, 25))


def test_diff_blocks_show_short_runs_and_the_end_when_only_newlines_differ():
    assert [b["folded"] for b in views.diff_blocks(rows("r==r"), context=1)] == [False]
    blocks = views.diff_blocks(rows("=" * 10), context=3)
    assert [(b["folded"], len(b["rows"])) for b in blocks] == [(True, 7), (False, 3)]
    assert not any(r["first"] for b in blocks for r in b["rows"])


def test_diff_blocks_cap_the_rows_shown_and_count_hidden_differences():
    blocks = views.diff_blocks(rows("r" * 100), shown=40)
    assert [(b["folded"], len(b["rows"]), b["changes"]) for b in blocks] == [
        (False, 40, 40), (True, 60, 60)]


def test_inline_highlight_marks_only_the_characters_that_differ():
    row = {"tag": "replace", "left": "eval(x) = 1000", "right": "eval(x) = -1000"}
    (block,) = views.diff_blocks([row])
    view = block["rows"][0]
    assert "".join(text for text, _ in view["right_parts"]) == row["right"]
    assert [text for text, changed in view["right_parts"] if changed] == ["-"]
    assert not any(changed for _, changed in view["left_parts"])
    unrelated = {"tag": "replace", "left": "State: [4 matchsticks]", "right": "Player 1 loses."}
    (block,) = views.diff_blocks([unrelated])
    assert block["rows"][0]["right_parts"] == [("Player 1 loses.", False)]


def test_mode_help_explains_every_comparison_mode():
    from graders.testing import MODE_NAMES

    for mode, name in MODE_NAMES.items():
        assert views.mode_help(mode) and views.mode_name(mode) == name
    assert views.mode_help("something new") == ""


def test_criterion_tests_follow_the_marking_patterns(samples):
    outcome, _ = samples
    result = next(r for r in outcome.results if r.student == "wrong_eval_sign")
    by_id = views.criterion_tests(get_pack("altnim"), result)
    assert set(by_id) == {m.id for m in result.criteria}
    for mark in result.criteria:
        counted = [i["test"] for i in by_id[mark.id] if i["test"].outcome in ("passed", "failed")]
        assert len(counted) == mark.total
        assert sum(t.outcome == "passed" for t in counted) == mark.passed


def test_faults_group_failed_cases_by_test_and_skip_grader_errors():
    def case(name, case, outcome):
        return Outcome(name=name, case=case, outcome=outcome, public=False)

    result = full_result(tests=[
        case("test_a", "1", "passed"), case("test_a", "2", "failed"), case("test_b", "", "error"),
        case("test_a", "3", "failed"), case("test_c", "", "failed"), case("test_d", "", "skipped"),
    ])
    groups = views.faults(result)
    assert [(g["name"], len(g["cases"]), len(g["failed"]), g["anchor"], g["state"])
            for g in groups] == [("test_a", 3, 2, "test-2", "partial"),
                                 ("test_c", 1, 1, "test-5", "failed")]
    items = [{"anchor": views.anchor_of_test(i), "test": t} for i, t in enumerate(result.tests, 1)]
    states = {g["name"]: (g["state"], g["passed"], g["counted"]) for g in views.by_test_name(items)}
    assert states == {"test_a": ("partial", 1, 3), "test_b": ("failed", 0, 1),
                      "test_c": ("failed", 0, 1), "test_d": ("skipped", 0, 0)}


def test_class_stats_ignore_grader_errors():
    results = [full_result(total=t) for t in (0.0, 50.0, 100.0)]
    results.append(full_result(total=0.0, status="grader-error"))
    stats = views.class_stats(results)
    assert (stats["count"], stats["mean"], stats["median"], stats["full"], stats["zero"]) == \
        (3, 50.0, 50.0, 1, 1)
    assert views.class_stats([]) == {"count": 0}


# -- CSV injection and citations -------------------------------------------------------------


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_that_a_spreadsheet_would_run_start_with_a_quote(start):
    # issue 15 point 4 (OWASP): a student named "=HYPERLINK(...)" must stay text.
    name = f"{start}HYPERLINK(\"http://evil\")"
    rows = list(csv.reader(io.StringIO(marks_csv([full_result(student=name)], ["output"]))))
    assert rows[1][0] == "'" + name
    cells = [cell for row in rows for cell in row]
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)


def test_csv_cells_that_are_plain_stay_as_they_are():
    rows = list(csv.reader(io.StringIO(marks_csv([full_result(student="Zoë")], ["output"]))))
    assert rows[1][:3] == ["Zoë", "26.25", "100"]


def test_each_criterion_shows_the_handout_sentence_it_enforces(tmp_path):
    sentence = "fill in the function definitions ... such that testAltNim.py ... reproduces"
    result = full_result()
    result.criteria[0].handout = sentence
    page = (rendered(tmp_path, result) / "students" / f"{slugify(result.student)}.html")
    html = page.read_text(encoding="utf-8")
    row = html.split('data-criterion="output"')[1].split("</tr>")[0]
    assert f'<div class="muted small handout" data-testid="handout">{sentence}</div>' in row
    other = html.split('data-criterion="helpers"')[1].split("</tr>")[0]
    assert "handout" not in other


# -- issue 17: reasons, class statistics, collapsed failures, source, similarity --------------


def outcome(name="test_x", case="", state="failed", message="wrong", **details):
    return Outcome(name=name, case=case, outcome=state, public=False, message=message,
                   details=details)


@pytest.mark.parametrize("changes, expected", [
    ({"tests": [outcome(kind="timeout", seconds=5)]}, ["timeout"]),
    ({"tests": [outcome(kind="crash"), outcome(kind="timeout")]}, ["crash", "timeout"]),
    ({"tests": [outcome(kind="exception", type="NameError")]}, ["raised NameError"]),
    ({"tests": [outcome(), outcome()]}, ["2 failed tests"]),
    ({"tests": [outcome(state="passed")]}, []),
    ({"status": "grader-error", "tests": []}, ["grader error"]),
    ({"tests": [outcome(kind="exception", type="ModuleNotFoundError")],
      "violations": [ViolationRecord(rule="missing-file", title="Missing file", file="f.py",
                                     message="not handed in")]}, ["missing file"]),
    ({"tests": [outcome(kind="exception", type="SyntaxError"), outcome(kind="timeout")],
      "violations": [ViolationRecord(rule="syntax-error", title="Syntax error", file="f.py",
                                     message="bad")]}, ["syntax error", "timeout"]),
])
def test_the_reason_column_says_why_in_words(changes, expected):
    assert stats.reasons(full_result(**{"violations": [], **changes})) == expected


def test_histograms_count_each_criterion_in_bands_and_skip_grader_errors():
    def marks(output, helpers, status="graded"):
        return full_result(status=status, criteria=[
            CriterionMark(id="output", title="o", points=30.0, earned=output, passed=0, total=1),
            CriterionMark(id="helpers", title="h", points=15.0, earned=helpers, passed=0,
                          total=1)])

    results = [marks(0, 15), marks(30, 15), marks(15, 3), marks(29, 0),
               marks(30, 15, "grader-error")]
    by_id = {h.id: h for h in stats.histograms(results, get_pack("altnim").declaration.criteria)}
    assert len(by_id) == len(get_pack("altnim").declaration.criteria)
    assert by_id["output"].counts == [1, 0, 0, 1, 1, 1] and by_id["output"].mean == 18.5
    assert by_id["helpers"].counts == [1, 1, 0, 0, 0, 2]
    assert by_id["eval"].mean is None and by_id["eval"].counts == [0] * 6
    bars = by_id["helpers"].bars
    assert [b["h"] for b in bars] == [18.0, 18.0, 0.0, 0.0, 0.0, 36.0]


def test_common_failures_rank_by_students_and_tokens_mark_their_rows():
    crash = "`apply` raised NameError: name 'x' is not defined"
    results = [full_result(student=s, tests=tests) for s, tests in (
        ("ann", [outcome(message=crash), outcome(name="test_y", message=crash)]),
        ("bob", [outcome(message=crash + "\nmore detail"), outcome(message="late")]),
        ("cy", [outcome(message="late")]),
        ("dee", [outcome(message="other")]),
    )]
    failures = stats.common_failures(results, limit=2)
    assert [(f["token"], f["message"], f["students"], f["tests"]) for f in failures] == [
        ("fail:01", "late", ["bob", "cy"], ["test_x"]),
        ("fail:02", "your code raised NameError: name 'x' is not defined", ["ann", "bob"],
         ["test_x", "test_y"])]
    assert stats.row_tokens(results[1], failures) == "fail:01 fail:02 failed:test_x"
    assert stats.row_tokens(results[3], failures) == "failed:test_x"
    rates = stats.test_rates(results + [full_result(student="eve", tests=[
        outcome(state="passed"), outcome(name="test_y", state="passed")])])
    assert [(r["name"], r["passed"], r["run"], r["students"]) for r in rates] == [
        ("test_x", 1, 6, ["ann", "bob", "cy", "dee"]), ("test_y", 1, 2, ["ann"])]


def test_identical_failures_collapse_into_one_with_a_count(tmp_path):
    # issue 17: a missing-file student's page repeated one failure 126 times (284 KB).
    why = "`python3 pnt.py` exited with status 2: can't open file 'pnt.py'"
    tests = [outcome(name=f"test_{n}", case=f"hidden{k}", message=f"case hidden{k}: {why}",
                     kind="fields", rows=[{"field": "Move", "expected": k, "got": "(missing)",
                                           "ok": False}])
             for n in range(7) for k in range(18)]
    student = "Ng_Ana_12348_assignsubmission_file_"
    tests.append(outcome(name="test_z", case=f"{slugify(student)}-hidden7", message="other"))
    result = full_result(student=student, tests=tests, violations=[])
    groups = views.failure_groups(result)
    assert [len(g["items"]) for g in groups] == [126, 1]
    assert len(groups[0]["variants"]) == views.MAX_VARIANTS
    assert len(groups[0]["more_variants"]) == 18 - views.MAX_VARIANTS
    page = (rendered(tmp_path, result) / "students" / f"{slugify(student)}.html").read_text()
    assert page.count('<details class="test') == 2
    assert "&times;126" in page and page.count("can&#39;t open file") < 40
    assert len(page) < 60_000
    for index in range(1, len(tests) + 1):  # every test's anchor still lands somewhere
        assert f'id="test-{index}"' in page
    assert "test_z <span class=\"muted\">[hidden7]</span>" in page
    assert f"{slugify(student)}-hidden7" not in page
    assert views.case_label(student, f"{student}-hidden7") == "hidden7"
    assert views.case_label(student, "depth2") == "depth2"


def test_source_is_highlighted_line_for_line_and_tracebacks_link_to_it(tmp_path):
    text = 'def f(x):\r\n    """doc\n    more"""\n\x0c\n    return g(x)  # <b>\n'
    lines = source.highlighted("helper.py", text)
    assert len(lines) == len(source.lines_of(text)) == 5
    assert lines[0][0] == ("k", "def") and ("c", "# <b>") in lines[4]
    assert "".join(piece for _, piece in lines[4]) == "    return g(x)  # <b>"
    assert source.highlighted("notes.txt", "a\nb") == [[("", "a")], [("", "b")]]
    traceback_text = ('Traceback:\n  File "/sandbox/Main.py", line 5, in f\n'
                      '  File "/usr/lib/python3/x.py", line 9\nNameError: g')
    result = full_result(
        files={"pnt.py": "x = 1\n", "helper.py": text}, aliases={"pnt.py": "472-Code3/Main.py"},
        helpers=["helper.py"], ignored=["notes.docx"], violations=[],
        tests=[outcome(kind="exception", type="NameError", traceback=traceback_text)])
    assert views.linked(result, traceback_text)[1] == ('File "/sandbox/Main.py", line 5',
                                                       "file-1-L5")
    assert views.failing_line(result, result.tests[0]) == "file-1-L5"
    page = (rendered(tmp_path, result) / "students" / f"{slugify(result.student)}.html")
    html = page.read_text()
    assert '<a href="#file-1-L5" class="src-link">File &#34;/sandbox/Main.py&#34;, line 5</a>' \
        in html
    assert "pnt.py (your 472-Code3/Main.py)" in html and "your helper module" in html
    assert '<ul data-testid="ignored"><li><code>notes.docx</code></li></ul>' in html
    assert '<span class="c"># &lt;b&gt;</span>' in html


SIMILAR = Path(__file__).with_name("similarity_examples")


def test_a_batch_puts_near_copies_at_the_top_of_the_similarity_section(tmp_path):
    from graders.batch import BatchRequest, grade_batch
    from graders.submissions import find_submissions

    pack = get_pack("altnim")
    starter = pack.template_text("myAltNimFunctions.template")
    texts = {name: (SIMILAR / f"{name}.py").read_text() for name in
             ("original", "renamed", "independent")}
    texts["starter_only"] = starter
    for name, text in texts.items():
        (tmp_path / "in" / name).mkdir(parents=True)
        (tmp_path / "in" / name / "myAltNimFunctions.py").write_text(text)
    out = tmp_path / "out"
    outcome_ = grade_batch(BatchRequest(pack=pack, sources=find_submissions(tmp_path / "in"),
                                        out_dir=out, fresh=True))
    assert {r.student for r in outcome_.results} == set(texts)
    section = similar.section(pack, outcome_.results)
    assert [(p["first"], p["second"]) for p in section.pairs] == [("original", "renamed")]
    index = (out / "index.html").read_text()
    listed = re.findall(r'<li data-first="([^"]+)" data-second="([^"]+)"', index)
    assert listed == [("original", "renamed")]
    assert "def " in "".join(re.findall(r"<mark>(.*?)</mark>", index))
    # the starter alone and the independent solution pair with no one, not even each other
    assert [r.total for r in outcome_.results] == [
        json.loads((out / "students" / f"{r.student}.json").read_text())["total"]
        for r in outcome_.results]  # the section changes no mark


def test_a_failing_similarity_check_never_stops_the_index(tmp_path, monkeypatch):
    import graders.similarity

    def boom(*args, **kwargs):
        raise RuntimeError("copydetect exploded")

    monkeypatch.setattr(graders.similarity, "similar_pairs", boom)
    out = rendered(tmp_path, full_result(student="a"), full_result(student="b"))
    index = (out / "index.html").read_text()
    assert "The similarity check failed (the marks are not affected)" in index
    assert "copydetect exploded" in index and (out / "marks.csv").is_file()


def test_the_similarity_of_an_unchanged_batch_is_reused(tmp_path, monkeypatch):
    import graders.similarity

    pack = get_pack("altnim")
    texts = {name: (SIMILAR / f"{name}.py").read_text() for name in ("original", "renamed")}
    results = [full_result(student=name, files={"myAltNimFunctions.py": text})
               for name, text in texts.items()]
    cache = tmp_path / "similarity.json"
    first = similar.section(pack, results, cache=cache)
    assert [(p["first"], p["second"]) for p in first.pairs] == [("original", "renamed")]
    calls = []
    real = graders.similarity.similar_pairs
    monkeypatch.setattr(graders.similarity, "similar_pairs",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    again = similar.section(pack, results, cache=cache)
    assert json.dumps(asdict(again)) == json.dumps(asdict(first)) and calls == []
    results[1].files = {"myAltNimFunctions.py": texts["renamed"] + "\nx = 1\n"}
    assert similar.section(pack, results, cache=cache).pairs and calls == [1]


def test_the_public_badge_counts_a_tests_public_cases(tmp_path: Path):
    """pnt's seven tests each run 27 cases, 4 of them public: the all-tests row said "public"
    as if every case were in the student's pre-check."""
    cases = [replace(outcome("test_apply", case=f"c{n}", state="passed"), public=n == 0)
             for n in range(3)]
    everyone = [replace(outcome("test_removals", state="passed"), public=True)]
    result = full_result("alice", tests=cases + everyone)
    html = (rendered(tmp_path, result) / "students" / "alice.html").read_text(encoding="utf-8")
    table = html.split('data-testid="tests"')[1].split("</table>")[0]
    assert '<span class="badge" data-testid="public-cases">public: 1 of 3 cases</span>' in table
    assert table.count('<span class="badge">public</span>') == 1
