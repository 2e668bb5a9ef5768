"""The TA's pages for a class of 200 (issue 30), driven in Debian's headless Chromium.

The class is built from the result JSON the engine wrote for game_of_nim's graded samples
(11 criteria), each duplicated under other names; the pages are written as a batch writes
them and opened from file:// at 1,400 px.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from graders import overrides
from graders.feedback import FeedbackWriter
from graders.pack import get_pack
from graders.packs.stonehenge import checks, oracle
from graders.report import ReportWriter, stats
from graders.results import OverrideRecord, SubmissionResult, TestOutcome
from graders.sandbox import Isolation
from graders.submissions import slugify
from graders.testing import Mismatch

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PACK_ID = "game_of_nim"
CLASS_SIZE = 200
WIDTH = 1400
OVERRIDDEN = "do_nothing"  # the sample whose first copy a TA overrides
REASON = "the handout's example game was played by hand at the demo"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def page_of(tmp_path_factory) -> Iterator[object]:
    """``page_of(path)``: a fresh tab at 1,400 x 900 px on ``path``; no request may leave
    file:// and no script error may happen (checked when the module ends)."""
    profile = tempfile.mkdtemp(prefix="pages-browser-")
    outside: list[str] = []
    errors: list[str] = []
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=ARGS, headless=True,
            viewport={"width": WIDTH, "height": 900})

        def open_page(path: Path):
            page = context.new_page()
            page.on("request", lambda r: r.url.startswith("file://") or outside.append(r.url))
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(path.resolve().as_uri())
            return page

        try:
            yield open_page
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)
    assert outside == [] and errors == []


def copy_of(result: SubmissionResult, name: str) -> SubmissionResult:
    copy = SubmissionResult.from_dict(json.loads(result.to_json()))
    copy.student = name
    return copy


@pytest.fixture(scope="module")
def big_class(graded_samples, tmp_path_factory) -> tuple[Path, list[SubmissionResult]]:
    """200 students: the engine's own results of the samples, duplicated under new names, and
    one override with its reason; written with the report's and the feedback's writers."""
    _, report_dir = graded_samples(PACK_ID)
    samples = [SubmissionResult.from_dict(json.loads(path.read_text(encoding="utf-8")))
               for path in sorted((report_dir / "students").glob("*.json"))]
    assert len(samples) >= 10
    results = [copy_of(samples[k % len(samples)], f"{samples[k % len(samples)].student}-{k:03d}")
               for k in range(CLASS_SIZE)]
    pack = get_pack(PACK_ID)
    out = tmp_path_factory.mktemp("class-of-200")
    overridden = first_copy(results, OVERRIDDEN)
    overrides.append(out / overrides.FILE_NAME, overrides.Override(
        student=overridden.student, criterion="transcript", points=2.0, comment=REASON,
        by="TA Ode", at="2026-01-05T10:00:00+00:00",
        code=overrides.code_digest(overridden.files)))
    writer = ReportWriter(out, pack)
    feedback = FeedbackWriter(out / "feedback", pack)
    for result in results:
        writer.write_student(result)
        feedback.write(result)
    writer.write_index(results, Isolation.BUBBLEWRAP)
    return out, results


def first_copy(results: list[SubmissionResult], sample: str) -> SubmissionResult:
    return next(r for r in results if r.student.rpartition("-")[0] == sample)


def shown_students(page) -> list[str]:
    return page.locator("#class tbody tr:visible").evaluate_all(
        "rows => rows.map(r => r.dataset.student)")


def right_edge(locator) -> float:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"]


def test_a_class_of_200_fits_1400_px_and_keeps_name_total_and_why_in_view(big_class, page_of):
    out, results = big_class
    page = page_of(out / "index.html")
    assert page.locator("#class tbody tr").count() == CLASS_SIZE
    assert len(get_pack(PACK_ID).declaration.criteria) == 11
    no_scroll = "document.documentElement.scrollWidth <= window.innerWidth"
    assert page.evaluate(no_scroll), page.evaluate("document.documentElement.scrollWidth")
    for heading in ("Why", "Rules", "Status"):
        assert right_edge(page.locator("#class thead th", has_text=heading)) <= WIDTH, heading
    # Each criterion on demand: the table scrolls in its own box, the page never does, and
    # name, total and why stay pinned at its left edge.
    page.get_by_test_id("expand-criteria").check()
    expect(page.locator('#class thead th.crit').first).to_be_visible()
    assert page.evaluate(no_scroll)
    wrap = page.locator("#class-wrap")
    page.evaluate("document.getElementById('class-wrap').scrollLeft = 100000")
    left = wrap.bounding_box()["x"]
    student = page.locator("#class tbody tr").first.locator("td").first
    assert abs(student.bounding_box()["x"] - left) < 2
    why = page.locator("#class thead th", has_text="Why")
    assert why.bounding_box()["x"] >= right_edge(student) - 2
    assert right_edge(why) <= right_edge(wrap)


def histogram_counts(page) -> dict[str, list[int]]:
    return page.locator("figure.hist").evaluate_all(
        """figures => Object.fromEntries(figures.map(f => [f.dataset.criterion,
             Array.from(f.querySelectorAll('rect title')).map(
               t => parseInt(t.textContent.split(': ')[1]))]))""")


def test_the_histograms_and_figures_follow_the_filter(big_class, page_of):
    out, results = big_class
    page = page_of(out / "index.html")
    criteria = get_pack(PACK_ID).declaration.criteria
    everyone = {h.id: h.counts for h in stats.histograms(results, criteria)}
    assert histogram_counts(page) == everyone
    page.locator("#filter").fill("no_turn_switch")
    shown = shown_students(page)
    assert 0 < len(shown) < CLASS_SIZE
    subset = [r for r in results if r.student in shown]
    expected = {h.id: h.counts for h in stats.histograms(subset, criteria)}
    assert expected != everyone
    assert histogram_counts(page) == expected
    assert page.locator('[data-stat="count"]').inner_text() == str(len(subset))
    tallest = page.locator("figure.hist").first.locator("rect").evaluate_all(
        "rs => Math.max(...rs.map(r => parseFloat(r.getAttribute('height'))))")
    assert tallest == 36  # the bars are scaled to the rows shown
    page.locator("#filter").fill("")
    assert histogram_counts(page) == everyone


def test_common_failures_are_grouped_by_cause_with_counts(graded_samples, tmp_path, page_of):
    """The samples, and five more students handing in the bare template (their real results
    under other names): one missing constructor met by five driver operations is one row."""
    _, report_dir = graded_samples(PACK_ID)
    samples = [SubmissionResult.from_dict(json.loads(path.read_text(encoding="utf-8")))
               for path in sorted((report_dir / "students").glob("*.json"))]
    bare = next(r for r in samples if r.student == "bare_template")
    results = samples + [copy_of(bare, f"bare_template-{k}") for k in range(5)]
    ReportWriter(tmp_path, get_pack(PACK_ID)).write_index(results, Isolation.BUBBLEWRAP)
    page = page_of(tmp_path / "index.html")
    table = page.get_by_test_id("common-failures")
    rows = table.locator("tbody tr").filter(has_text="NotImplementedError: build self.initial")
    expect(rows).to_have_count(1)  # not one row per driver operation that met it
    cells = rows.first.locator("td").all_inner_texts()
    hit = [(r.student, t.name) for r in results for t in r.tests
           if t.outcome == "failed" and "NotImplementedError: build self.initial" in t.message]
    assert cells[0] == str(len({student for student, _ in hit})) == "6"
    assert cells[1] == str(len(hit))
    assert len(cells[3].split(", ")) == len({name for _, name in hit}) > 3
    assert "your code raised NotImplementedError" in cells[2]
    rows.first.locator("button.filter-by").click()
    assert sorted(shown_students(page)) == sorted({student for student, _ in hit})


def test_a_cause_is_one_failure_however_many_kinds_or_whichever_operation_met_it():
    def failed(message: str, name: str = "test_x") -> TestOutcome:
        return TestOutcome(name=name, case="", outcome="failed", public=False, message=message)

    style = [failed(f"python_ta (a2_pyta.txt): {n} kind(s) of message:\n  C0103: 2x", "test_s")
             for n in (3, 5, 9)]
    missing = [failed(f"`{op}` raised AttributeError: module 'stonehenge' has no attribute "
                      "'StonehengeGame'") for op in ("trace", "subtract_square", "choose")]
    assert len({stats.failure_cause(test) for test in style}) == 1
    assert len({stats.failure_cause(test) for test in missing}) == 1
    assert "a2_pyta.txt" in stats.failure_cause(style[0])
    named = failed("the first line differs", "test_format")
    named.causes = {"extra-line-after": "an extra line after the output"}
    assert stats.failure_cause(named) == "an extra line after the output"


def test_the_tests_column_leaves_out_skipped_and_zero_point_tests(big_class, page_of):
    out, results = big_class
    page = page_of(out / "index.html")
    skipped = next(r for r in results if r.total == r.max_total
                   and any(t.outcome == "skipped" for t in r.tests))
    row = page.locator(f'#class tr[data-student="{skipped.student}"]')
    tests = row.locator("td").nth(3 + 1 + 11).inner_text()
    passed, counted = stats.counted_tests(get_pack(PACK_ID), skipped)
    assert tests == f"{passed}/{counted}" and passed == counted < len(skipped.tests)
    row.locator("td.student a").click()
    assert f"{passed} of {counted} tests passed" in page.locator("p.muted").first.inner_text()


def test_handout_citations_render_their_markdown(big_class, page_of):
    out, results = big_class
    page = page_of(out / "students" / f"{slugify(first_copy(results, 'reference').student)}.html")
    citations = page.get_by_test_id("handout")
    assert "**" not in " ".join(citations.all_inner_texts())
    expect(citations.locator("strong", has_text="constructor")).to_have_count(1)
    expect(citations.locator("code", has_text="(r, n)").first).to_be_visible()


def test_the_feedback_page_gives_the_overrides_reason(big_class, page_of):
    out, results = big_class
    page = page_of(out / "feedback" / f"{slugify(first_copy(results, OVERRIDDEN).student)}.html")
    reason = page.get_by_test_id("override-reason")
    expect(reason).to_have_count(1)
    assert REASON in reason.inner_text() and "TA Ode" in reason.inner_text()


# -- a stonehenge board, compared token by token --------------------------------------------


def test_a_board_diff_shows_the_boards_as_printed_with_the_differing_token_marked(
        tmp_path, page_of):
    pos = oracle.trace(2, True, ["A"])[-1]
    expected = oracle.render(pos)
    printed = expected.replace(" - ", "-").replace("1-1-B", "1-2-B")  # other spacing, one slip
    with pytest.raises(Mismatch) as failure:
        checks.expect_board(printed, expected, "side 2, p1 moves first, after A")
    pack = get_pack("stonehenge")
    result = SubmissionResult(
        student="board_student", assignment=pack.id, assignment_title=pack.title,
        status="graded", isolation="bubblewrap", total=90.0, max_total=100.0,
        tests=[TestOutcome(name="test_board_after_moves", case="", outcome="failed",
                           public=True, message=failure.value.message,
                           details=failure.value.details)],
        graded_at="2026-01-01T00:00:00+00:00")
    ReportWriter(tmp_path, pack).write_student(result)
    page = page_of(tmp_path / "students" / "board_student.html")
    got = page.get_by_test_id("board-got")
    assert got.inner_text().rstrip("\n") == printed.rstrip("\n")  # as printed, not tokens
    assert got.locator("mark").all_inner_texts() == ["2"]
    board = page.get_by_test_id("board-expected")
    assert board.inner_text().rstrip("\n") == expected.rstrip("\n")
    assert board.locator("mark").all_inner_texts() == ["1"]


def test_an_override_of_the_total_gives_its_reason_too():
    pack = get_pack(PACK_ID)
    result = SubmissionResult(
        student="late_ann", assignment=pack.id, assignment_title=pack.title, status="graded",
        isolation="bubblewrap", total=80.0, max_total=100.0, automatic_total=60.0,
        overrides=[OverrideRecord(criterion="total", points=80.0, comment="medical note",
                                  by="TA Ode", at="2026-01-05T10:00:00+00:00",
                                  automatic=60.0)],
        graded_at="2026-01-01T00:00:00+00:00")
    page = FeedbackWriter(Path("unused"), pack).render(result)
    assert "medical note" in page and "the total set to 80 (the grader gave 60)" in page
