"""The ``cases`` mark of graders/fixtures.py: a pack test's generated cases, made once per
process at collection (never at import), with ids taken from each case's own data."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders import fixtures, kept

# A stand-in pack test module: two tests share one generator (made once for both), and the
# module itself calls nothing while being imported.
TESTS = '''
import pytest

import made_here


def label(case):
    return f"side{case['side']}"


@pytest.mark.cases(made_here.games, 3, sides=(2, 5), ids=label)
def test_first(case):
    assert case["side"] in (2, 5)


@pytest.mark.cases(made_here.games, 3, sides=(2, 5), ids=label)
def test_second(case):
    assert case["index"] != 1
'''

GENERATOR = '''
CALLS = []


def games(count, sides):
    CALLS.append((count, sides))
    return [{"side": sides[i % len(sides)], "index": i} for i in range(count)]
'''


class Outcomes:
    """Collected ids and each test's outcome, from the inner session."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.outcomes: dict[str, str] = {}

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.ids = [item.name for item in session.items]

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":
            self.outcomes[report.nodeid.split("::")[-1]] = report.outcome


def test_cases_are_made_once_and_named_by_their_data(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "made_here.py").write_text(GENERATOR, encoding="utf-8")
    (tmp_path / "test_demo.py").write_text(TESTS, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    seen = Outcomes()
    pytest.main([str(tmp_path / "test_demo.py"), "-c", str(tmp_path / "pytest.ini"), "-q",
                 "--strict-markers", "-p", "no:cacheprovider", "-p", "no:randomly",
                 "-p", "no:xdist"], plugins=[fixtures, seen])
    import made_here

    assert made_here.CALLS == [(3, (2, 5))]
    assert seen.ids == ["test_first[side2-0]", "test_first[side5-1]", "test_first[side2-2]",
                        "test_second[side2-0]", "test_second[side5-1]",
                        "test_second[side2-2]"]
    assert seen.outcomes["test_second[side5-1]"] == "failed"
    assert list(seen.outcomes.values()).count("passed") == 5
    kept.forget()
