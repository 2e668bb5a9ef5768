"""python_ta answers kept and reused (graders/style/answers.py): keyed by all that can change
them, never reused past a change, and asked once per distinct file set. Fake runs: counts of
what python_ta was asked, no sandbox."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from graders.style import assessed
from graders.style.answers import Answers, context
from graders.style.python_ta import TIMED_OUT, FileReport, Message

PACK_CONFIG = "[MESSAGES CONTROL]\ndisable=C0103\n"
VERSIONS = {"python-ta": "2.13.1", "pylint": "4.0.10"}
MINE = '"""Mine."""\nimport board\n\n\nX = board.SIZE\n'


def workspace(root: Path, name: str, **files: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    for file, text in files.items():
        (folder / file).write_text(text, encoding="utf-8")
    return folder


def report(file: str, *ids: str) -> FileReport:
    messages = [Message(i, "some-symbol", i[0], 3, "text") for i in ids]
    return FileReport(file, messages, len(messages))


def test_the_key_follows_the_file_and_what_it_imports_and_nothing_else(tmp_path):
    answers = Answers(tmp_path / "kept", PACK_CONFIG, VERSIONS)
    ann = workspace(tmp_path, "ann", **{"stonehenge.py": MINE, "board.py": "SIZE = 1\n",
                                        "notes.py": "x = 1\n"})
    bob = workspace(tmp_path, "bob", **{"stonehenge.py": MINE, "board.py": "SIZE = 1\n"})
    key = answers.key(ann, "stonehenge.py")
    assert key is not None and key == answers.key(bob, "stonehenge.py")
    assert set(context(ann, "stonehenge.py")) == {"stonehenge.py", "board.py"}
    (bob / "board.py").write_text("SIZE = 2\n", encoding="utf-8")
    assert answers.key(bob, "stonehenge.py") != key, "an imported module changed"
    assert Answers(tmp_path / "kept", PACK_CONFIG + "#\n", VERSIONS).key(ann, "stonehenge.py") \
        != key, "the config changed"
    assert Answers(tmp_path / "kept", PACK_CONFIG, {**VERSIONS, "pylint": "4.1"}).key(
        ann, "stonehenge.py") != key, "the tool changed"
    assert answers.key(ann, "missing.py") is None
    assert Answers(None, PACK_CONFIG, VERSIONS).key(ann, "stonehenge.py") is None


def test_an_answer_is_kept_only_when_the_load_cannot_change_it(tmp_path):
    answers = Answers(tmp_path / "kept", PACK_CONFIG, VERSIONS)
    folder = workspace(tmp_path, "ann", **{"a.py": "A = 1\n", "b.py": "B = 1\n",
                                           "c.py": "C = 1\n", "d.py": "D = 1\n"})
    keys = {name: answers.key(folder, name) for name in ("a.py", "b.py", "c.py", "d.py")}
    answers.put(keys["a.py"], report("a.py", "C0301", "W0611"), VERSIONS)
    answers.put(keys["b.py"], FileReport("b.py", refused=f"{TIMED_OUT} within 60 s"), VERSIONS)
    answers.put(keys["c.py"], FileReport("c.py", crashed="RecursionError"), VERSIONS)
    answers.put(keys["d.py"], FileReport("d.py", refused="python_ta would not check it: "
                                         "pylint comment"), VERSIONS)
    assert answers.get(keys["a.py"]) == (report("a.py", "C0301", "W0611"), VERSIONS)
    assert answers.get(keys["b.py"]) is None and answers.get(keys["c.py"]) is None
    assert answers.get(keys["d.py"]) is not None
    assert answers.run_of(folder, ["a.py", "d.py"], "cfg") is not None
    assert answers.run_of(folder, ["a.py", "b.py"], "cfg") is None


class FakeTool:
    """python_ta's runner as the fake sees it: who was asked to check what."""

    def __init__(self) -> None:
        self.asked: list[list[str]] = []

    def over(self, name, script, args, folders):
        plan = json.loads(args[2])
        self.asked.append([folder for folder, _ in plan])
        lines = ['{"versions": {"python_ta": "2"}}']
        lines += [json.dumps({"folder": folder, "file": file, "messages": [], "count": 0})
                  for folder, files in plan for file in files]
        return SimpleNamespace(stdout="\n".join(lines))

    def alone(self, name, script, args, workspace="student"):
        self.asked.append([workspace, *args[1:]])
        lines = ['{"versions": {"python_ta": "2"}}']
        lines += [json.dumps({"file": file, "messages": [], "count": 0}) for file in args[1:]]
        return SimpleNamespace(stdout="\n".join(lines), timed_out=False)


@pytest.fixture
def kept_in(tmp_path, monkeypatch):
    monkeypatch.setattr(assessed, "answers_dir", lambda name: tmp_path / "kept")
    monkeypatch.setattr(assessed, "tool_of", lambda pack, name: SimpleNamespace(
        versions=lambda: VERSIONS))


def students(tmp_path: Path, texts: dict[str, str]):
    return [SimpleNamespace(id=sid, files={"stonehenge.py": text, "strategy.py": text},
                            helpers=[], workspace=workspace(
                                tmp_path / "work", sid,
                                **{"stonehenge.py": text, "strategy.py": text}))
            for sid, text in texts.items()]


def test_a_regrade_and_a_copied_submission_ask_python_ta_nothing_more(tmp_path, kept_in):
    from graders.pack import get_pack

    pack = get_pack("stonehenge")
    fake = FakeTool()
    first = students(tmp_path / "one", {"ann": "A = 1\n", "bob": "B = 1\n", "cat": "A = 1\n"})
    runs = assessed.session_runs(pack, first, fake.over, {})
    assert set(runs) == {"ann", "bob", "cat"}
    assert len(fake.asked) == 1 and len(fake.asked[0]) == 2, "cat's files are ann's"
    assert runs["cat"].files.keys() == runs["ann"].files.keys()
    again = students(tmp_path / "two", {"ann": "A = 1\n", "bob": "B = 2\n"})
    runs = assessed.session_runs(pack, again, fake.over, {})
    assert set(runs) == {"ann", "bob"}
    assert len(fake.asked) == 2 and fake.asked[1] == ["s0"], "only bob changed"


def test_the_starter_is_checked_once_per_pack_not_per_session(tmp_path, kept_in):
    from graders.pack import get_pack

    pack = get_pack("stonehenge")
    fake = FakeTool()
    one = assessed.starter_run(pack, fake.alone, {})
    two = assessed.starter_run(pack, fake.alone, {})
    assert fake.asked == [["starter", "stonehenge.py", "strategy.py"]]
    assert one == two
    ann = students(tmp_path, {"ann": "A = 3\n"})[0]
    assessed.student_run(pack, ann, fake.alone, {}, {}, {})
    assessed.student_run(pack, ann, fake.alone, {}, {}, {})
    assert len(fake.asked) == 2, "the student's own run is kept too"
