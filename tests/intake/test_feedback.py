"""Student-safe feedback: visible tests in full, hidden ones by name and pass/fail only, and
no hidden input or expected output in any feedback page of any pack's samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.feedback import FeedbackWriter
from graders.feedback.scan import leaks, page_text, secrets_of
from graders.feedback.visibility import visibility_of
from graders.pack import Pack, discover_packs, get_pack
from graders.results import CriterionMark, SubmissionResult, TestOutcome
from graders.specs import GraderTestsSpec
from graders.submissions import slugify

PACKS = sorted(discover_packs())
ALTNIM = get_pack("altnim")


@pytest.mark.parametrize("pack_id", PACKS)
def test_no_feedback_page_of_any_sample_holds_hidden_input_or_expected_output(
    graded_samples, pack_id
):
    pack = get_pack(pack_id)
    outcome, out = graded_samples(pack_id)
    checked, found = 0, {}
    for result in outcome.results:
        page = out / "feedback" / f"{slugify(result.student)}.html"
        assert page.is_file(), result.student
        if secrets_of(pack, result):
            checked += 1
        leaked = leaks(pack, page, result)
        if leaked:
            found[result.student] = leaked[:5]
    assert found == {}
    assert checked > 0  # the scan had hidden material to look for


def _result(*tests: TestOutcome) -> SubmissionResult:
    return SubmissionResult(
        student="jane", assignment="altnim", assignment_title=ALTNIM.title, status="graded",
        isolation="bubblewrap", total=10, max_total=100,
        criteria=[CriterionMark("eval", "eval agrees", 15, 10, 2, 3)], tests=list(tests),
    )


HIDDEN = TestOutcome("test_minimax_hidden", "state-17-odd", "failed", public=False,
                     message="expected MiniMax value 4242 for hidden state", details={
                         "kind": "fields", "rows": [{"field": "value", "expected": "4242",
                                                     "got": "7", "ok": False}]})
VISIBLE = TestOutcome("test_out_script", "", "failed", public=True,
                      message="out.script differs at line 3: expected `Player 1 wins`")


def test_visible_tests_are_shown_in_full_and_hidden_ones_by_name_only(tmp_path: Path):
    writer = FeedbackWriter(tmp_path, ALTNIM)
    result = _result(HIDDEN, VISIBLE)
    writer.write(result)
    text = page_text(writer.path("jane"))
    assert "expected `Player 1 wins`" in text
    assert "test_minimax_hidden" in text and "0 / 1" in text
    for secret in ("4242", "state-17-odd", "hidden state"):
        assert secret not in text
    assert leaks(ALTNIM, writer.path("jane"), result) == []


def test_the_declaration_decides_visibility(tmp_path: Path):
    spec = GraderTestsSpec(visibility={"test_minimax_*": "visible", "test_out_*": "hidden"})
    pack = Pack(ALTNIM.declaration.model_copy(update={"tests": spec}), ALTNIM.dir, ALTNIM.root)
    assert visibility_of(pack, HIDDEN) == "visible" and visibility_of(pack, VISIBLE) == "hidden"
    assert visibility_of(ALTNIM, HIDDEN) == "hidden" and visibility_of(ALTNIM, VISIBLE) == "visible"
    writer = FeedbackWriter(tmp_path, pack)
    writer.write(_result(HIDDEN, VISIBLE))
    text = page_text(writer.path("jane"))
    assert "4242" in text and "Player 1 wins" not in text


def test_after_due_tests_show_only_once_the_due_date_has_passed(tmp_path: Path):
    from datetime import datetime, timedelta

    spec = GraderTestsSpec(visibility={"test_minimax_*": "after_due"})
    pack = Pack(ALTNIM.declaration.model_copy(update={"tests": spec}), ALTNIM.dir, ALTNIM.root)
    past, future = (datetime.now().astimezone() + timedelta(days=d) for d in (-1, 1))
    FeedbackWriter(tmp_path / "past", pack, past).write(_result(HIDDEN))
    FeedbackWriter(tmp_path / "future", pack, future).write(_result(HIDDEN))
    assert "4242" in page_text(tmp_path / "past" / "jane.html")
    assert "4242" not in page_text(tmp_path / "future" / "jane.html")


def test_after_due_tests_wait_for_a_students_own_due_date(tmp_path: Path):
    """The class's due date has passed, this student's extension has not: they may still
    hand in again, so what is shown "after the due date" stays hidden from them."""
    from datetime import datetime, timedelta

    spec = GraderTestsSpec(visibility={"test_minimax_*": "after_due"})
    pack = Pack(ALTNIM.declaration.model_copy(update={"tests": spec}), ALTNIM.dir, ALTNIM.root)
    past, future = (datetime.now().astimezone() + timedelta(days=d) for d in (-1, 1))
    extended = _result(HIDDEN)
    extended.lms["due"] = future.isoformat()
    FeedbackWriter(tmp_path, pack, past).write(extended)
    assert "4242" not in page_text(tmp_path / "jane.html")


def test_the_scan_finds_a_leak_when_there_is_one(tmp_path: Path):
    page = tmp_path / "leak.html"
    page.write_text("<p>expected MiniMax value 4242 for hidden state</p>")
    assert leaks(ALTNIM, page, _result(HIDDEN)) != []


def test_both_headings_count_in_the_same_units(tmp_path: Path):
    """pnt's page said "Tests shown in full (28)" (cases) beside "Hidden tests (7)" (names of
    tests holding 161 cases): each heading now says what it counts."""
    writer = FeedbackWriter(tmp_path, ALTNIM)
    more = TestOutcome("test_minimax_hidden", "state-18", "passed", public=False)
    writer.write(_result(HIDDEN, more, VISIBLE))
    html = writer.path("jane").read_text(encoding="utf-8")
    assert '<span class="muted" data-testid="visible-count">(1 case)</span>' in html
    assert '<span class="muted" data-testid="hidden-count">(1 test, 2 cases)</span>' in html
