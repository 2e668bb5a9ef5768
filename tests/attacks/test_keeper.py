"""The keeper (``graders/sandbox/keeper.py``): the process that holds the grader's answer
channel runs no student code, and the process that runs student code holds neither the
grader's pipes nor its signing key.

Issue 27, "the process that holds the answer channel never runs student code": before the
split, one process held the key, the grader's pipes, the pack's driver and the student's code.
"""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.errors import StudentCrash
from graders.sandbox import Limits, Sandbox
from graders.sandbox.keeper import MODULES_PROBE

DRIVER = textwrap.dedent('''
    import sys

    def run(name, *args):
        import student
        return getattr(student, name)(*args)

    def modules():
        import student
        return sorted(sys.modules)
''')

STUDENT = textwrap.dedent('''
    import os

    def fds():
        """Every fd of this process, with what it leads to."""
        return {fd: os.readlink(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")
                if os.path.exists(f"/proc/self/fd/{fd}")}

    def parents_fds():
        """What this process reaches of its parent's fds: listed, opened for writing."""
        reached = []
        parent = os.getppid()
        try:
            reached += os.listdir(f"/proc/{parent}/fd")
        except OSError:
            pass
        for fd in range(64):
            try:
                with open(f"/proc/{parent}/fd/{fd}", "wb", buffering=0) as pipe:
                    pipe.write(b"\\0\\0\\0\\2{}")
                reached.append(fd)
            except OSError:
                pass
        return reached
''')


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    box = Sandbox()
    yield box
    box.close()


def _workspace(folder: Path) -> Path:
    (folder / "driver.py").write_text(DRIVER, encoding="utf-8")
    workspace = folder / "workspace"
    workspace.mkdir()
    (workspace / "student.py").write_text(STUDENT, encoding="utf-8")
    return workspace


@pytest.fixture(scope="module")
def worker(sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("keeper")
    made = sandbox.worker(_workspace(folder), folder / "driver.py", Limits(wall_seconds=20),
                          "keeper")
    yield made
    made.close()


def _pipe(fd: int) -> str:
    return f"pipe:[{os.fstat(fd).st_ino}]"


def test_student_code_holds_no_fd_of_the_grader(worker):
    links = set(worker.call("run", "fds").values())
    assert links, "the student's process lists no fd at all"
    assert _pipe(worker.link.requests) not in links
    assert _pipe(worker.link.responses) not in links


def test_student_code_cannot_reach_the_keepers_fds(worker):
    assert worker.call("run", "parents_fds") == []
    assert worker.call("run", "fds")  # nothing was forged: the channel still answers


def test_the_keeper_never_imports_the_driver_or_the_student(worker):
    there = worker.call("modules")
    assert {"student", "grader_driver", "child_guard"} <= set(there)  # the child's
    keeper = worker.call(MODULES_PROBE)
    assert "child" in keeper and "hmac" in keeper
    assert not {"student", "grader_driver", "child_guard"} & set(keeper)


def test_the_keeper_starts_light_and_the_child_as_before(worker):
    """Issue 29: the keeper (no student code) starts without `site` or `typing`; the child
    that runs student code still has `typing` loaded before the guard, as it always had."""
    keeper = set(worker.call(MODULES_PROBE))
    assert not {"site", "typing"} & keeper
    assert {"typing", "site"} <= set(worker.call("modules"))


def _tree(root: int) -> dict[int, tuple[int, str]]:
    """``pid -> (parent pid, command line)`` of ``root`` and everything below it."""
    found: dict[int, tuple[int, str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        found[int(entry)] = (int(stat[1]), command.decode(errors="replace"))
    below, todo = {}, [root]
    while todo:
        pid = todo.pop()
        below.update({p: v for p, v in found.items() if v[0] == pid})
        todo += [p for p, v in found.items() if v[0] == pid]
    return below


def _runs(command: str, program: str) -> bool:
    """Whether ``command`` is the sandbox's python running the harness's ``program``."""
    return re.match(rf"\S*python\S* -I (-S )?\S*/{re.escape(program)} $", command) is not None


def _memory_holds(pid: int, secrets: list[bytes]) -> bool:
    """Whether any writable mapping of process ``pid`` holds one of ``secrets`` (as root)."""
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as memory:
        for line in maps:
            span, mode = line.split()[:2]
            if not mode.startswith("rw"):
                continue
            start, end = (int(part, 16) for part in span.split("-"))
            try:
                memory.seek(start)
                data = memory.read(end - start)
            except OSError:
                continue
            if any(secret in data for secret in secrets):
                return True
    return False


@pytest.mark.skipif(os.geteuid() != 0, reason="reading another process's memory needs root")
def test_the_key_lives_only_in_the_keeper(worker):
    worker.call("run", "fds")
    tree = _tree(worker.link.process.popen.pid)
    keepers = [pid for pid, (_, command) in tree.items() if _runs(command, "keeper.py")]
    children = [pid for pid, (_, command) in tree.items() if _runs(command, "child.py")]
    assert len(keepers) == 1 and len(children) == 1, tree
    assert tree[children[0]][0] == keepers[0]  # the student's process is the keeper's child
    key = [worker._key, worker._key.hex().encode()]
    assert _memory_holds(keepers[0], key)  # the search finds the key where it is
    assert not _memory_holds(children[0], key)


# Stands for student code that found a way into the memory of the process that runs it (a
# route the guard does not know): the driver is harness code, so the guard hands it frames, and
# from `serve`'s frame it takes the child's channel and key and signs what it likes.
ROGUE_DRIVER = textwrap.dedent('''
    import hmac, json, os, struct, sys, time

    def honest():
        return 1

    def forge(kind):
        frame = sys._getframe()
        while "channel" not in frame.f_locals:
            frame = frame.f_back
        channel, number = frame.f_locals["channel"], frame.f_locals["request_id"]
        base = {"id": number, "ok": True, "value": 1, "stdout": "", "stderr": "",
                "output_dropped": 0, "watches": []}
        body = {
            "nan": json.dumps({**base, "value": float("nan")}),
            "wrong_number": json.dumps({**base, "id": number + 1}),
            "extra_field": json.dumps({**base, "marks": 100}),
            "odd_watch": json.dumps({**base, "watches": [
                {"scope": "strategy.py", "recursion": 0, "intact": True}]}),
            "no_record": "[1, 2]",
            "trailing": json.dumps(base) + " 7",
            "too_deep": json.dumps(base)[:-1] + ', "value": ' + "[" * 100000 + "]" * 100000
                        + "}",
        }[kind].encode()
        signed = struct.pack(">Q", channel.sent) + channel.asked + body
        tag = hmac.digest(channel.key, signed, "sha256")
        os.write(4, struct.pack(">I", len(body)) + body + tag)
        time.sleep(60)  # the keeper refuses the answer and kills this process first
''')


@pytest.fixture(scope="module")
def rogue(sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    """A worker whose child (the process that runs student code) answers what it likes,
    signed with the key the keeper gave it."""
    folder = tmp_path_factory.mktemp("rogue")
    workspace = _workspace(folder)
    (folder / "driver.py").write_text(ROGUE_DRIVER, encoding="utf-8")
    made = sandbox.worker(workspace, folder / "driver.py", Limits(wall_seconds=20), "rogue")
    yield made
    made.close()


@pytest.mark.parametrize("answer", ["nan", "wrong_number", "extra_field", "odd_watch",
                                    "no_record", "trailing", "too_deep"])
def test_an_answer_that_is_not_plain_or_not_the_childs_is_a_crash(rogue, answer):
    """Even signed with the child's key, an answer that is not plain data, or not the answer to
    this request, is thrown away: the student gets a crash, never marks or a grader error."""
    assert rogue.call("honest") == 1
    with pytest.raises(StudentCrash, match="private answer channel") as caught:
        rogue.call("forge", answer)
    assert caught.value.details == {"kind": "protocol"}
    assert rogue.call("honest") == 1  # a fresh worker
