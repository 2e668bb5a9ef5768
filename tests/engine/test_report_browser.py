"""The HTML reports, driven in a real headless Chromium from file:// (offline).

Needs Debian's ``/usr/bin/chromium`` (CI installs it); Playwright's own browsers are never used.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from playwright.sync_api import expect, sync_playwright

from graders.batch import BatchRequest, grade_batch
from graders.pack import get_pack
from graders.report import ReportWriter
from graders.results import CriterionMark, Deduction, SubmissionResult, ViolationRecord
from graders.results import TestOutcome as Outcome  # not "Test*": pytest would collect it
from graders.sandbox import Isolation
from graders.submissions import find_submissions, slugify

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HOSTILE = "<script>alert(1)</script>"
SAMPLES = "altnim"  # the pack whose graded samples these tests read
SCREENSHOTS = Path(tempfile.gettempdir())

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium "
                              "(apt-get install chromium)"),
]


# -- browser plumbing ---------------------------------------------------------------------


@dataclass
class Tab:
    """A page that records every request, dialog, page error and console error."""

    page: Any  # playwright.sync_api.Page
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def open(self, path: Path) -> None:
        self.page.goto(path.resolve().as_uri())

    def assert_offline_and_quiet(self) -> None:
        assert self.requests, "no request was recorded at all: the recorder is broken"
        assert [url for url in self.requests if not url.startswith("file://")] == []
        assert self.dialogs == [], "a script ran and opened a dialog"
        assert self.errors == []


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    profile = tempfile.mkdtemp(prefix="report-browser-")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=ARGS, headless=True,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def tab(browser) -> Iterator[Tab]:
    page = browser.new_page()
    tab = Tab(page)
    page.on("request", lambda request: tab.requests.append(request.url))
    page.on("dialog", lambda dialog: (tab.dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: tab.errors.append(f"page error: {error}"))
    page.on("console", lambda message: message.type == "error"
            and tab.errors.append(f"console: {message.text}"))
    yield tab
    page.close()


@pytest.fixture(scope="module")
def samples(graded_samples):
    outcome, report_dir = graded_samples(SAMPLES)
    return outcome, report_dir


def student_page(report_dir: Path, student: str) -> Path:
    return report_dir / "students" / f"{slugify(student)}.html"


def totals_in_table(tab: Tab) -> list[float]:
    cells = tab.page.locator("#class tbody tr td:nth-child(2)")
    return [float(value) for value in cells.evaluate_all("cs => cs.map(c => c.dataset.value)")]


def visible_students(tab: Tab) -> list[str]:
    return tab.page.locator("#class tbody tr:visible").evaluate_all(
        "rows => rows.map(r => r.dataset.student)")


def open_files(tab: Tab) -> None:
    tab.page.locator("details[id^=file-]").evaluate_all("ds => ds.forEach(d => { d.open = true; })")


# -- hand-built results -------------------------------------------------------------------


def built_result(student: str, **changes) -> SubmissionResult:
    pack = get_pack("altnim")
    result = SubmissionResult(
        student=student, assignment=pack.id, assignment_title=pack.title, status="graded",
        isolation="bubblewrap", total=85.0, max_total=pack.declaration.max_points,
        criteria=[CriterionMark(id=c.id, title=c.title, points=c.points, earned=c.points,
                                passed=1, total=1) for c in pack.declaration.criteria],
        tests=[Outcome(name="test_out_script", case="", outcome="passed", public=True)],
        files={"myAltNimFunctions.py": "def eval(state, isMax):\n    return 0\n"},
        graded_at="2026-01-01T00:00:00+00:00",
    )
    return replace(result, **changes)


@pytest.fixture(scope="module")
def built_reports(tmp_path_factory) -> Path:
    """A grader-error result, a hostile one and a clean one, rendered like a real batch."""
    out = tmp_path_factory.mktemp("built-reports")
    broken = built_result(
        "broken_grader", status="grader-error", total=0.0,
        grader_errors=["test_minimax [case 3]: grader error: KeyError('depth')"],
        tests=[Outcome(name="test_minimax_matches_reference", case="case 3",
                           outcome="error", public=False,
                           message="grader error: KeyError('depth')",
                           details={"kind": "grader-error",
                                    "traceback": "Traceback ...\nKeyError: 'depth'"})],
    )
    hostile = built_result(
        HOSTILE,
        files={"myAltNimFunctions.py": f"# {HOSTILE}\nimport math  # </pre><img src=x "
                                       "onerror=alert(2)>\n"},
        tests=[Outcome(
            name="test_out_script", case=HOSTILE, outcome="failed", public=True,
            message=f"output differs at line 1: got {HOSTILE}",
            details={"kind": "text-diff", "what": "output of testAltNim.py vs out.script",
                     "mode": "exact", "first_difference": 1, "truncated": False,
                     "rows": [{"tag": "replace", "left_no": 1, "left": "== getRemovals ==",
                               "right_no": 1, "right": HOSTILE}],
                     "stderr": "<iframe src=javascript:alert(4)></iframe>"})],
        violations=[ViolationRecord(
            rule="forbidden-import", title="Forbidden <b>import</b>", file="myAltNimFunctions.py",
            message="`import math` <svg onload=alert(5)>", line=2,
            source_line="import math  # </pre><img src=x onerror=alert(2)>",
            fix="<a href=javascript:alert(6)>remove it</a>", deduction=15.0)],
        deductions=[Deduction(reason="Forbidden import <script>alert(7)</script>", points=15.0)],
    )
    clean = built_result("clean_student", total=100.0)
    cases = built_result("many_cases", tests=[
        Outcome(name="test_minimax_matches_reference", case=f"depth{depth}",
                outcome="passed" if depth == 1 else "failed", public=False,
                message=f"MiniMax at depth {depth}: expected 7, got {depth}",
                details={"kind": "fields", "what": f"MiniMax at depth {depth}",
                         "rows": [{"field": "value", "expected": 7, "got": depth, "ok": False}]})
        for depth in range(1, 5)])
    writer = ReportWriter(out, get_pack("altnim"))
    for result in (broken, hostile, clean, cases):
        writer.write_student(result)
    writer.write_index([broken, hostile, clean, cases], Isolation.BUBBLEWRAP)
    return out


@pytest.fixture(scope="module")
def hostile_batch(tmp_path_factory) -> tuple[str, Path]:
    """A REAL graded submission whose folder name and file content are hostile HTML."""
    root = tmp_path_factory.mktemp("hostile-submissions")
    name = '<img src=x onerror=alert(1)> & "q"'  # a folder name cannot hold "/" (</script>)
    folder = root / name
    folder.mkdir()
    source = get_pack("altnim").fixtures_dir / "submissions" / "correct" / "myAltNimFunctions.py"
    text = source.read_text(encoding="utf-8") + f"\n# </pre>{HOSTILE}\n"
    (folder / "myAltNimFunctions.py").write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("hostile-reports")
    outcome = grade_batch(BatchRequest(pack=get_pack("altnim"), sources=find_submissions(root),
                                       out_dir=out, fresh=True))
    assert [r.student for r in outcome.results] == [name]
    return name, out


# -- the class page -----------------------------------------------------------------------


def test_class_table_lists_every_student(samples, tab):
    outcome, report_dir = samples
    tab.open(report_dir / "index.html")
    listed = tab.page.locator("#class tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.student)")
    assert sorted(listed) == sorted(r.student for r in outcome.results)
    links = tab.page.locator("#class tbody td.student a").all_inner_texts()
    assert sorted(links) == sorted(r.student for r in outcome.results)
    tab.assert_offline_and_quiet()


def test_clicking_total_sorts_numerically_up_then_down(samples, tab):
    _, report_dir = samples
    tab.open(report_dir / "index.html")
    header = tab.page.locator("#class thead th", has_text="Total")
    before = totals_in_table(tab)
    header.click()
    ascending = totals_in_table(tab)
    assert header.get_attribute("aria-sort") == "ascending"
    assert ascending == sorted(before)
    assert ascending != sorted(before, key=str)  # 100 after 85 and 15: numbers, not text
    header.click()
    assert header.get_attribute("aria-sort") == "descending"
    assert totals_in_table(tab) == sorted(before, reverse=True)
    # The rows moved with their totals: the best row links to a full-marks student.
    first = tab.page.locator("#class tbody tr").first
    assert first.locator("td").nth(1).inner_text().startswith("100")
    tab.assert_offline_and_quiet()


def test_filter_box_hides_rows(samples, tab):
    outcome, report_dir = samples
    tab.open(report_dir / "index.html")
    everyone = sorted(r.student for r in outcome.results)
    box = tab.page.locator("#filter")
    box.fill("wrong_")
    assert sorted(visible_students(tab)) == ["wrong_eval_sign", "wrong_file_name"]
    assert tab.page.locator("#shown").inner_text() == f"2 of {len(everyone)} shown"
    assert tab.page.locator('#class tr[data-student="correct"]').is_hidden()
    box.fill("forbidden-import")  # the filter also matches the rules broken
    assert visible_students(tab) == ["empty_file", "extra_import"]
    box.fill("no such student")
    assert visible_students(tab) == []
    box.fill("")
    assert sorted(visible_students(tab)) == everyone
    tab.assert_offline_and_quiet()


def test_links_to_student_pages_work(samples, tab):
    outcome, report_dir = samples
    tab.open(report_dir / "index.html")
    hrefs = tab.page.locator("#class tbody td.student a").evaluate_all(
        "links => links.map(a => a.href)")
    assert len(hrefs) == len(outcome.results)
    for href in hrefs:
        assert Path(unquote(urlparse(href).path)).is_file(), href
    tab.page.locator("#class a", has_text="wrong_eval_sign").click()
    assert tab.page.url.endswith("/students/wrong_eval_sign.html")
    assert tab.page.locator("h1").inner_text() == "wrong_eval_sign"
    assert tab.page.get_by_test_id("total").inner_text() == "15 / 100"
    tab.page.get_by_role("link", name="class results").click()
    assert tab.page.url.endswith("/index.html")
    tab.assert_offline_and_quiet()


# -- student pages ------------------------------------------------------------------------


def test_failing_out_script_shows_side_by_side_diff(samples, tab):
    _, report_dir = samples
    tab.open(student_page(report_dir, "wrong_eval_sign"))
    test = tab.page.locator('details.test[data-test="test_out_script"]')
    assert test.get_attribute("open") is not None
    assert "differs at line 24" in test.get_by_test_id("message").inner_text()
    diff = test.get_by_test_id("diff")
    assert diff.is_visible()
    headers = diff.locator("thead th").all_inner_texts()
    assert headers[0] == "expected" and headers[1].startswith("got")
    first = diff.locator("tr.first")
    assert first.count() == 1 and first.is_visible()
    cells = first.locator("td").all_inner_texts()
    assert cells[0] == "24" and cells[2] == "24"
    assert cells[1].endswith("= 1000") and cells[3].endswith("= -1000")
    assert first.locator("td.right .chg").inner_text() == "-"  # the one character that differs
    assert test.get_by_test_id("mode").inner_text() == "exact bytes"
    assert "Every character counts" in test.get_by_test_id("diff-legend").inner_text()
    # The "first difference" link lands on that row.
    test.get_by_role("link", name="24", exact=True).click()
    assert tab.page.url.endswith("#test-1-first")
    # Unchanged lines are folded; a button shows them.
    hidden_rows = diff.locator("tbody[hidden] tr")
    folded = hidden_rows.count()
    assert folded > 0
    shown = diff.locator("tr:visible").count()
    diff.locator("button.unfold").first.click()
    assert diff.locator("tr:visible").count() > shown
    assert hidden_rows.count() < folded
    tab.assert_offline_and_quiet()


def test_marks_list_the_tests_of_each_criterion(samples, tab):
    _, report_dir = samples
    tab.open(student_page(report_dir, "wrong_eval_sign"))
    helpers = tab.page.locator('[data-testid="criteria"] tr[data-criterion="helpers"] a.chip')
    assert helpers.count() == 4
    assert all("passed" in (c or "") for c in helpers.evaluate_all(
        "chips => chips.map(c => c.className)"))
    evaluation = tab.page.locator('tr[data-criterion="eval"] a.chip')
    assert evaluation.all_inner_texts() == ["test_eval_matches_reference"]
    evaluation.click()
    expect(tab.page.locator('details.test[data-test="test_eval_matches_reference"]')).to_be_visible()
    todo = tab.page.get_by_test_id("todo").inner_text()
    assert "test_eval_matches_reference" in todo and "expected -1000, got 1000" in todo
    tab.assert_offline_and_quiet()


def test_parameter_cases_are_grouped_and_links_open_closed_cases(built_reports, tab):
    tab.open(student_page(built_reports, "many_cases"))
    todo = tab.page.get_by_test_id("todo").inner_text()
    assert "3 of 4 cases failed: depth2, depth3, depth4" in todo
    chips = tab.page.locator('tr[data-criterion="minimax"] a.chip').all_inner_texts()
    assert chips == ["test_minimax_matches_reference 1/4", "depth2", "depth3", "depth4"]
    cases = tab.page.locator('details.test[data-test="test_minimax_matches_reference"]')
    assert [c is not None for c in cases.evaluate_all("ds => ds.map(d => d.open || null)")] == [
        True, False, False]  # only the first failing case starts open
    tab.page.locator('tr[data-criterion="minimax"] a.chip', has_text="depth4").click()
    last = cases.nth(2)
    # The page opens it on "hashchange", which fires after click() returns: wait for it.
    expect(last).to_have_attribute("open", "")
    expect(last.get_by_test_id("fields")).to_be_visible()
    assert "expected 7, got 4" in last.inner_text()
    tab.assert_offline_and_quiet()


def test_violation_shows_its_source_line(samples, tab):
    _, report_dir = samples
    tab.open(student_page(report_dir, "extra_import"))
    violation = tab.page.locator('.violation[data-rule="forbidden-import"]')
    source = violation.get_by_test_id("source-line")
    assert source.is_visible()
    assert "import math" in source.inner_text()
    assert "myAltNimFunctions.py:" in source.inner_text()
    assert "What to do" in violation.inner_text()
    # The file:line link opens the graded file at that line, highlighted.
    source.locator("a").click()
    line = tab.page.locator("table.code tr.hit")
    expect(line).to_have_count(1)
    expect(line).to_be_visible()  # opened on "hashchange", after click() returns
    assert "import math" in line.inner_text()
    tab.assert_offline_and_quiet()


def test_grader_error_banner_only_when_a_result_has_a_grader_error(samples, built_reports, tab):
    tab.open(student_page(built_reports, "broken_grader"))
    banner = tab.page.get_by_test_id("grader-error")
    assert banner.is_visible()
    assert "KeyError('depth')" in banner.inner_text()
    assert "do not release" in banner.inner_text()
    tab.open(built_reports / "index.html")
    assert tab.page.get_by_test_id("grader-errors").is_visible()
    assert tab.page.locator('#class tr.grader-error').evaluate_all(
        "rows => rows.map(r => r.dataset.student)") == ["broken_grader"]
    tab.open(student_page(built_reports, "clean_student"))
    assert tab.page.get_by_test_id("grader-error").count() == 0
    # None of the real samples hit a grader error, so no banner anywhere.
    _, report_dir = samples
    tab.open(report_dir / "index.html")
    assert tab.page.get_by_test_id("grader-errors").count() == 0
    for page in sorted((report_dir / "students").glob("*.html")):
        tab.open(page)
        assert tab.page.get_by_test_id("grader-error").count() == 0, page.name
    tab.assert_offline_and_quiet()


def test_no_request_leaves_file_urls(samples, tab):
    _, report_dir = samples
    tab.open(report_dir / "index.html")
    tab.page.locator("#class thead th", has_text="Total").click()
    tab.page.locator("#filter").fill("a")
    pages = sorted((report_dir / "students").glob("*.html"))
    assert len(pages) >= 12
    for page in pages:
        tab.open(page)
        tab.page.locator("button.unfold").evaluate_all("bs => bs.forEach(b => b.click())")
        tab.page.locator("details:not([open]) > summary").evaluate_all(
            "summaries => summaries.forEach(s => s.click())")
    assert len(tab.requests) >= len(pages) + 1
    tab.assert_offline_and_quiet()


def test_hostile_text_is_shown_never_executed(built_reports, tab):
    tab.open(built_reports / "index.html")
    link = tab.page.locator("#class td.student a", has_text=HOSTILE)
    assert link.is_visible() and link.inner_text() == HOSTILE
    link.click()
    assert tab.page.locator("h1").inner_text() == HOSTILE
    assert HOSTILE in tab.page.title()
    page_text = tab.page.locator("body").inner_text()
    for shown in ("import math  # </pre><img src=x onerror=alert(2)>",
                  "<iframe src=javascript:alert(4)></iframe>", "<svg onload=alert(5)>",
                  "<a href=javascript:alert(6)>remove it</a>", "Forbidden <b>import</b>",
                  "alert(7)</script>", f"got {HOSTILE}"):
        assert shown in page_text, shown
    assert tab.page.locator(".side.right", has_text=HOSTILE).is_visible()
    open_files(tab)
    assert tab.page.locator("table.code td", has_text=f"# {HOSTILE}").is_visible()
    # Nothing the student wrote became an element.
    assert tab.page.locator("body iframe, body img, body svg, body b, .violation a[href^=java]"
                            ).count() == 0
    assert tab.page.locator("script").count() == 1  # the report's own
    tab.assert_offline_and_quiet()


def test_hostile_folder_name_survives_real_grading(hostile_batch, tab):
    name, report_dir = hostile_batch
    tab.open(report_dir / "index.html")
    link = tab.page.locator("#class td.student a")
    assert link.inner_text() == name
    link.click()
    assert tab.page.locator("h1").inner_text() == name
    open_files(tab)
    assert tab.page.locator("table.code td", has_text=f"# </pre>{HOSTILE}").is_visible()
    assert tab.page.locator("body img").count() == 0
    tab.assert_offline_and_quiet()


def test_print_view_hides_controls_and_opens_sections(samples, tab):
    _, report_dir = samples
    tab.open(report_dir / "index.html")
    tab.page.emulate_media(media="print")
    assert tab.page.locator("#filter").is_hidden()
    tab.open(student_page(report_dir, "import_crash"))
    tab.page.locator("details[data-print-open]").first.evaluate("d => { d.open = false; }")
    tab.page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    closed = tab.page.locator("details[data-print-open]:not([open])").count()
    assert closed == 0
    assert tab.page.locator("button.unfold:visible").count() == 0
    tab.page.emulate_media(media="screen")
    tab.assert_offline_and_quiet()


def test_screenshots(samples, tab):
    """Screenshots for a human to look at (not compared)."""
    _, report_dir = samples
    tab.page.set_viewport_size({"width": 1280, "height": 1000})
    tab.open(report_dir / "index.html")
    tab.page.screenshot(path=SCREENSHOTS / "report-index.png", full_page=True)
    tab.open(student_page(report_dir, "wrong_eval_sign"))
    tab.page.screenshot(path=SCREENSHOTS / "report-student.png", full_page=False)
    for name in ("report-index.png", "report-student.png"):
        assert (SCREENSHOTS / name).stat().st_size > 10_000
    tab.assert_offline_and_quiet()


# -- issue 17: the TA's index --------------------------------------------------------------


def timed_out(student: str, total: float) -> SubmissionResult:
    return built_result(student, total=total, tests=[Outcome(
        name="test_out_script", case="", outcome="failed", public=True,
        message="`python3 testAltNim.py` did not finish within 5 s and was stopped",
        details={"kind": "timeout", "seconds": 5})])


@pytest.fixture(scope="module")
def ta_reports(tmp_path_factory) -> Path:
    """Six students: two timed out, one crashed, one with a traceback into their code, two
    clean; one override for a timed-out student."""
    from graders import overrides

    out = tmp_path_factory.mktemp("ta-reports")
    pack = get_pack("altnim")
    crash = "`apply` raised NameError: name 'getRemovals' is not defined"
    results = [
        timed_out("loops_forever", 30.0),
        timed_out("slow_search", 50.0),
        built_result("crashes", total=10.0, tests=[Outcome(
            name="test_apply_matches_reference", case="", outcome="failed", public=False,
            message=crash, details={"kind": "crash", "exit_status": -9})]),
        built_result("typo", total=20.0, files={"myAltNimFunctions.py": "x = 1\n" * 10 +
                                                "print(getRemovals(3))\n"},
                     tests=[Outcome(
                         name="test_apply_matches_reference", case="", outcome="failed",
                         public=False, message=crash,
                         details={"kind": "exception", "type": "NameError",
                                  "traceback": '  File "/sandbox/myAltNimFunctions.py", '
                                               "line 11, in <module>\nNameError: getRemovals"})]),
        built_result("ace", total=100.0),
        built_result("bea", total=90.0),
    ]
    overrides.append(out / overrides.FILE_NAME, overrides.Override(
        student="loops_forever", criterion="output", points=10.0,
        comment="loops only on the last game", by="TA Kim", at="2026-01-03T09:00:00+00:00",
        code=overrides.code_digest(results[0].files)))
    writer = ReportWriter(out, pack)
    for result in results:
        writer.write_student(result)
    writer.write_index(results, Isolation.BUBBLEWRAP)
    return out


def stat(tab: Tab, name: str) -> str:
    return tab.page.locator(f'[data-stat="{name}"]').inner_text()


def test_filter_by_timeout_shows_only_timed_out_students_and_the_figures_follow(ta_reports, tab):
    tab.open(ta_reports / "index.html")
    # the override: loops_forever's output 30 became 10, so its total 30 became 10
    assert (stat(tab, "count"), stat(tab, "mean")) == ("6", "46.7")
    tab.page.locator("#filter").fill("timeout")
    assert sorted(visible_students(tab)) == ["loops_forever", "slow_search"]
    assert tab.page.locator("#shown").inner_text() == "2 of 6 shown"
    assert (stat(tab, "count"), stat(tab, "mean"), stat(tab, "median")) == ("2", "30.0", "30")
    assert stat(tab, "range") == "10 \u2013 50" and stat(tab, "full") == "0"
    assert tab.page.locator('[data-mean="output"]').inner_text() == "20.0"
    tab.page.locator("#filter").fill("crash")
    assert visible_students(tab) == ["crashes"]
    tab.page.locator("#filter").fill("raised nameerror")  # every word must match
    assert visible_students(tab) == ["typo"]
    tab.page.locator("#filter").fill("overridden")  # the status column
    assert visible_students(tab) == ["loops_forever"]
    tab.page.locator("#filter").fill("")
    assert stat(tab, "count") == "6"
    tab.assert_offline_and_quiet()


def test_a_histogram_is_rendered_for_each_criterion(ta_reports, tab):
    tab.open(ta_reports / "index.html")
    criteria = [c.id for c in get_pack("altnim").declaration.criteria]
    figures = tab.page.locator('[data-testid="histograms"] figure.hist')
    assert figures.evaluate_all("fs => fs.map(f => f.dataset.criterion)") == criteria
    for index in range(len(criteria)):
        svg = figures.nth(index).locator("svg")
        assert svg.is_visible() and svg.locator("rect").count() == 6
        box = svg.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 40
    heights = figures.nth(0).locator("rect").evaluate_all(
        "rs => rs.map(r => parseFloat(r.getAttribute('height')))")
    assert max(heights) > 30  # the tallest band fills the chart
    tab.assert_offline_and_quiet()


def test_an_override_shows_on_the_index_the_student_page_and_marks_csv(ta_reports, tab):
    import csv

    tab.open(ta_reports / "index.html")
    row = tab.page.locator('#class tr[data-student="loops_forever"]')
    assert row.locator("td").nth(1).inner_text().startswith("10")
    assert "overridden" in row.inner_text()
    assert "automatic mark 30" in (row.locator("td").nth(1).get_attribute("title") or "")
    log = tab.page.get_by_test_id("override-log")
    assert "loops only on the last game" in log.inner_text() and "TA Kim" in log.inner_text()
    row.locator("td.student a").click()
    assert tab.page.get_by_test_id("total").inner_text() == "10 / 100"
    assert "automatic mark 30" in tab.page.get_by_test_id("overridden").inner_text()
    banner = tab.page.get_by_test_id("override-banner").inner_text()
    assert "loops only on the last game" in banner and "TA Kim" in banner
    assert "2026-01-03T09:00:00+00:00" in banner
    output = tab.page.locator('[data-testid="criteria"] tr[data-criterion="output"] td').nth(1)
    assert output.inner_text().startswith("30 override 10")
    rows = {r["student"]: r for r in csv.DictReader((ta_reports / "marks.csv").open())}
    assert (rows["loops_forever"]["total"], rows["loops_forever"]["output"]) == ("10", "10")
    assert rows["loops_forever"]["automatic_total"] == "30"
    tab.assert_offline_and_quiet()


def test_clicking_a_common_failure_filters_to_the_students_who_hit_it(ta_reports, tab):
    tab.open(ta_reports / "index.html")
    table = tab.page.get_by_test_id("common-failures")
    button = table.locator("button.filter-by", has_text="raised NameError")
    assert table.locator("tbody tr").filter(has_text="raised NameError").locator(
        "td").first.inner_text() == "2"
    token = button.get_attribute("data-filter")
    assert token and token.startswith("fail:")
    button.click()
    assert tab.page.locator("#filter").input_value() == token
    assert sorted(visible_students(tab)) == ["crashes", "typo"]
    assert stat(tab, "count") == "2"
    rates = tab.page.get_by_test_id("test-rates")
    rates.locator("button.filter-by").first.click()
    assert tab.page.locator("#filter").input_value().startswith("failed:")
    tab.assert_offline_and_quiet()


def test_keys_move_between_students_on_the_index_and_the_student_pages(ta_reports, tab):
    tab.open(ta_reports / "index.html")
    order = visible_students(tab)
    tab.page.keyboard.press("j")
    tab.page.keyboard.press("j")
    assert tab.page.locator("#class tr.current").get_attribute("data-student") == order[1]
    tab.page.keyboard.press("Enter")
    tab.page.wait_for_url(f"**/students/{slugify(order[1])}.html")
    tab.page.keyboard.press("j")
    tab.page.wait_for_url(f"**/students/{slugify(order[2])}.html")
    tab.page.keyboard.press("k")
    tab.page.wait_for_url(f"**/students/{slugify(order[1])}.html")
    tab.page.keyboard.press("u")
    tab.page.wait_for_url("**/index.html")
    tab.page.keyboard.press("/")
    assert tab.page.evaluate("document.activeElement.id") == "filter"
    tab.assert_offline_and_quiet()


def test_a_traceback_links_to_the_line_in_the_highlighted_source(ta_reports, tab):
    tab.open(student_page(ta_reports, "typo"))
    assert "myAltNimFunctions.py line 11" in tab.page.get_by_test_id("failing-line").inner_text()
    tab.page.get_by_test_id("traceback").locator("a.src-link").click()
    line = tab.page.locator("#file-1-L11")
    assert line.is_visible() and "print(getRemovals(3))" in line.inner_text()
    assert line.locator("span.nb").inner_text() == "print"  # highlighted by Pygments
    tab.assert_offline_and_quiet()
