"""The term page and a history page, driven in a real headless Chromium from file://: offline,
no script, every assignment's column for the class, the reasons, and links that open the
student's pages (rebuilt from the gradebook) and their history.

Needs Debian's ``/usr/bin/chromium`` (CI installs it); Playwright's own browsers are never used.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from graders import overrides
from graders.cli import main
from graders.gradebook import open_gradebook

from .build import PACKS, record, result

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HOSTILE = "<script>alert(1)</script>"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium "
                              "(apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def term(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A class of three graded on all five assignments; pnt regraded after a pack change,
    altnim after an override; pages written by `grade gradebook` from the gradebook alone."""
    reports = tmp_path_factory.mktemp("term")
    book = open_gradebook(None, reports)
    names = ("alice", "bob", f"eve {HOSTILE}")
    for pack in PACKS:
        record(book, [result(pack, name, 0.9, late=3.0 if name == "bob" else 0.0)
                      for name in names])
    record(book, [result("pnt", "alice", 0.9), result("pnt", "bob", 0.5, late=3.0),
                  result("pnt", names[2], 0.9)], pack="p2")
    book.add_override("altnim", overrides.Override(
        "alice", "total", 99.0, f"agreed {HOSTILE}", "TA Kim", "2026-10-03T00:00:00+00:00",
        overrides.code_digest(result("altnim", "alice").files)), 90.0)
    book.close()
    assert main(["gradebook", "--reports", str(reports)]) == 0
    return reports


@pytest.fixture(scope="module")
def page() -> Iterator[object]:
    profile = tempfile.mkdtemp(prefix="gradebook-browser-")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            tab = context.new_page()
            tab.requests, tab.problems = [], []
            tab.on("request", lambda request: tab.requests.append(request.url))
            tab.on("dialog", lambda dialog: (tab.problems.append(dialog.message),
                                             dialog.dismiss()))
            tab.on("pageerror", lambda error: tab.problems.append(str(error)))
            yield tab
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


def test_the_term_page_shows_five_assignments_for_the_class(term: Path, page):
    page.goto((term / "index.html").as_uri())
    headers = page.locator("table[data-testid=term] thead th[data-assignment]")
    expect(headers).to_have_count(5)
    assert sorted(headers.evaluate_all("hs => hs.map(h => h.dataset.assignment)")) == sorted(
        PACKS)
    expect(page.locator("tbody tr")).to_have_count(3)
    bob = page.locator("tr[data-student=id-bob]")
    expect(bob.locator("td[data-assignment=pnt] .mark")).to_have_text("47 / 100")
    expect(bob.locator("td[data-assignment=pnt] .late")).to_have_text("late −3")
    expect(bob.locator("td[data-assignment=pnt] [data-testid=reason]")).to_have_text(
        "changed: the pack changed")
    expect(page.locator("[data-testid=changed-pnt]")).to_contain_text(
        "marks changed since the last run: 1 students")
    alice = page.locator("tr[data-student=id-alice]")
    expect(alice.locator("td[data-assignment=altnim] .mark")).to_have_text("99 / 100")
    expect(alice.locator("td[data-assignment=altnim] .overrides")).to_have_text("1 override(s)")
    expect(page.locator("tr[data-student='id-eve <script>alert(1)</script>'] td").first
           ).to_contain_text(HOSTILE)
    assert [u for u in page.requests if not u.startswith("file://")] == []
    assert page.problems == []


def test_links_open_the_rebuilt_student_page_and_the_history(term: Path, page):
    page.goto((term / "index.html").as_uri())
    page.locator("tr[data-student=id-bob] td[data-assignment=pnt] a.mark").click()
    assert page.url.endswith("/pnt/students/bob.html")
    expect(page.locator("body")).to_contain_text("bob")
    page.goto((term / "index.html").as_uri())
    page.locator("tr[data-student=id-bob] td[data-assignment=pnt] a.history").click()
    assert page.url.endswith("/history/pnt/bob.html")
    runs = page.locator("table[data-testid=runs] tbody tr")
    expect(runs).to_have_count(2)
    expect(runs.nth(0).locator(".said")).to_have_text("first graded")
    expect(runs.nth(1).locator(".said")).to_contain_text("total 87 → 47")
    expect(runs.nth(1).locator(".said")).to_contain_text("the pack changed")
    page.locator("a", has_text="The term").click()
    assert page.url.endswith("/index.html") and "/pnt/" not in page.url
    page.goto((term / "history" / "altnim" / "alice.html").as_uri())
    expect(page.locator("table[data-testid=overrides]")).to_contain_text(f"agreed {HOSTILE}")
    expect(page.locator("table[data-testid=overrides]")).to_contain_text("90 → 99")
    assert [u for u in page.requests if not u.startswith("file://")] == []
    assert page.problems == []
