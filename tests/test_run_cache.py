"""The run cache's keyed entries, and what the run's summary says of waits and processor time."""

from __future__ import annotations

from pathlib import Path

from tests import gradings
from tests.run_cache import RunCache


def test_a_keyed_entry_is_made_once_per_key(tmp_path: Path, tmp_path_factory, monkeypatch):
    monkeypatch.setenv(gradings.COUNT_ENV, str(tmp_path / "count.jsonl"))
    cache = RunCache(tmp_path / "shared", tmp_path_factory)
    made: list[str] = []

    def make(folder: Path) -> Path:
        made.append(folder.name)
        (folder / "built").write_text("x")
        return folder / "built"

    first = cache.keyed("kit-venv", "pytest==9\n", make)
    again = cache.keyed("kit-venv", "pytest==9\n", make)
    other = cache.keyed("kit-venv", "pytest==9\nhypothesis\n", make)
    assert first == again != other and len(made) == 2
    assert first.read_text() == "x"
    summary = "\n".join(gradings._entry_lines(tmp_path / "count.jsonl.entries"))
    assert "run cache: 3 asks for 1 entries" in summary


def test_a_wait_names_the_test_that_waited(tmp_path: Path, monkeypatch):
    monkeypatch.setenv(gradings.COUNT_ENV, str(tmp_path / "count.jsonl"))
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "tests/kit/test_k.py::test_t[tippy] (call)")
    gradings.note_entry("samples-tippy", 73.2, 0.4)
    summary = gradings._entry_lines(tmp_path / "count.jsonl.entries")
    assert summary[1] == "  waited 73 s for samples-tippy in tests/kit/test_k.py::test_t[tippy]"


def test_the_summary_sums_processor_time_by_folder_file_and_test(tmp_path: Path, monkeypatch):
    monkeypatch.setenv(gradings.COUNT_ENV, str(tmp_path / "count.jsonl"))
    tests = ["tests/kit/test_a.py::t1", "tests/kit/test_a.py::t2", "tests/style/b.py::t",
             "tests/test_top.py::t"]
    for nodeid in [*tests, "test_pack_own.py::t"]:  # the last: a grading session's own item
        with gradings.processor_time(nodeid):
            sum(range(10_000))
    lines = gradings._cpu_lines(tmp_path / "count.jsonl.cpu")
    assert lines[0].startswith("processor time:")
    names = [line.split()[-1] for line in lines[1:]]
    assert set(names[:3]) == {"tests/kit", "tests/style", "tests"}
    assert set(names[3:6]) == {"tests/kit/test_a.py", "tests/style/b.py", "tests/test_top.py"}
    assert sorted(names[6:]) == sorted(tests)
