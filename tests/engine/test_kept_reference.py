"""Issue 29: the reference's answers are asked once per grading process, not once per student.

The ``reference`` fixture asks the reference driver through the answers kept per process and
pack (as ``reference_call`` does): a question any student's tests asked before is answered from
there, a fresh copy each time."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from graders import kept
from graders.batch import BatchRequest, grade_batch
from graders.errors import StudentError
from graders.fixtures import KeptReference
from graders.pack import get_pack
from graders.sandbox.worker import Worker


@dataclass
class FakeWorker:
    """Answers ``op`` with its arguments; ``fail`` raises as a reference error would."""

    asked: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)

    def call(self, op: str, *args: Any, **kwargs: Any) -> Any:
        self.asked.append((op, args, kwargs))
        if op == "fail":
            raise StudentError("the reference failed")
        return {"op": op, "args": list(args), "stdin": kwargs.get("stdin")}


@dataclass
class FakeState:
    """The parts of a grading state :class:`KeptReference` reads."""

    reference_workspace: Path
    fake: FakeWorker = field(default_factory=FakeWorker)
    reference_answers: dict[str, Any] = field(default_factory=dict)
    public_only: bool = False

    def worker(self, key: str, workspace: Path, label: str) -> FakeWorker:
        assert (key, workspace, label) == ("reference", self.reference_workspace,
                                           "__reference__")
        return self.fake


def test_a_question_asked_again_is_answered_from_the_kept_answers(tmp_path):
    state = FakeState(tmp_path)
    first, second = KeptReference(state), KeptReference(state)  # two students' tests
    answer = first.call("moves", [3, 1], rule="misere")
    answer["args"].append("changed by a test")
    assert second.call("moves", [3, 1], rule="misere") == {"op": "moves", "args": [[3, 1]],
                                                          "stdin": None}
    second.call("moves", [3, 1], stdin="2\n", rule="misere")  # stdin is part of the question
    second.call("moves", [3, 2], rule="misere")
    assert [args for _, args, _ in state.fake.asked] == [([3, 1],), ([3, 1],), ([3, 2],)]


def test_an_error_is_not_kept(tmp_path):
    state = FakeState(tmp_path)
    for _ in range(2):
        with pytest.raises(StudentError):
            KeptReference(state).call("fail", 1)
    assert len(state.fake.asked) == 2 and state.reference_answers == {}


def test_a_public_test_may_not_ask_the_reference(tmp_path):
    state = FakeState(tmp_path, public_only=True)
    with pytest.raises(Exception, match="public test used reference"):
        KeptReference(state).call("moves", [1])


def test_two_identical_students_ask_the_reference_each_question_once(tmp_path, monkeypatch):
    """A real batch (altNim's differential tests call ``reference.call``): the second of two
    identical students asks the reference nothing new, and gets the first one's marks."""
    pack = get_pack("altnim")
    for name in ("first", "second"):
        shutil.copytree(pack.fixtures_dir / "submissions" / "correct", tmp_path / name)
    asked: list[str] = []
    original = Worker.call_raw

    def counted(self: Worker, op: str, *args: Any, **kwargs: Any) -> Any:
        if self.label == "__reference__":
            asked.append(json.dumps([op, args], default=repr))
        return original(self, op, *args, **kwargs)

    monkeypatch.setattr(Worker, "call_raw", counted)
    kept.forget()
    outcome = grade_batch(BatchRequest(pack=pack, sources=sorted(tmp_path.iterdir()), jobs=1,
                                       fresh=True))
    kept.forget()
    assert asked and len(asked) == len(set(asked))  # each question once for the class
    first, second = outcome.results
    assert first.total == second.total == pack.declaration.max_points
    assert [t.outcome for t in first.tests] == [t.outcome for t in second.tests]
