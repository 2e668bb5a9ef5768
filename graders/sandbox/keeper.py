"""The keeper: the sandboxed process that holds the grader's answer channel and never runs
student code.

Copied into the sandbox as ``/harness/keeper.py`` and started by the grader's
:class:`~graders.sandbox.worker.Worker`. Standard library only, plus ``child.py`` beside it
(harness code: the channel's framing and signing). It never imports the pack's driver, the
guard or anything of the student's.

Order matters. The keeper makes itself non-dumpable before anything else (no process of its
uid can ptrace it or read its memory), then reads the grader's signing key, the first message
on fds 3 and 4 (:class:`child.Channel`). Only then does it start the worker that runs the
student's code, ``child.py``, as its own child on a fresh pipe pair placed at fds 3 and 4 of
that child, with a key of its own: the grader's pipes are close-on-exec and the grader's key
never leaves this process. Each request goes on to the child without the grader's id (a plain
number instead); each answer comes back signed with the child's key, is decoded as plain JSON
(no nan or infinity, nesting and size capped), checked field by field and only then signed
with the grader's key and sent on. An answer that is not so is the student code's doing: the
child is killed and the grader is told why (``forged``). When the child dies, the keeper ends
the same way (exit status or signal), so the grader's account of a crash is unchanged.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import select
import signal
import sys

TYPE_CHECKING = False  # `typing` costs every worker start ~10 ms: annotations only
# Under `python3 -I` the script's folder is not on the path: the harness folder is put there
# by hand (and nothing else: not the student's working folder).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from graders.sandbox import child
else:
    import child

CHILD_PROGRAM = os.path.join(child.HARNESS_DIR, "child.py")
# Asked by the grader only (student code cannot reach the grader's pipes): which modules
# this process holds, so a test can prove it never imported the student's or the driver's.
MODULES_PROBE = "graders.keeper.modules"
ANSWER_FIELDS = frozenset({"id", "ok", "value", "error", "stdout", "stderr", "output_dropped",
                           "watches"})
WATCH_FIELDS = {"scope": (str,), "recursion": (str, type(None)), "intact": (bool,)}
ERROR_FIELDS = frozenset({"type", "message", "traceback"})
MAX_WATCHES = 1000
NOT_SIGNED = "an answer the worker did not sign"
SIGNATURE = 32  # HMAC-SHA256, as child.Channel.send signs


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not plain data")


class ChildLink:
    """The keeper's end of the pipes to the child that runs student code."""

    def __init__(self) -> None:
        self.key, self.digest = os.urandom(32), child._hmac_digest()
        requests_read, self.requests = os.pipe()
        self.answers, answers_write = os.pipe()
        # The child's pipes at its fds 3 and 4, over the grader's: every other fd of this
        # process is close-on-exec, so nothing else of it reaches the child.
        try:
            self.pid = os.posix_spawn(sys.executable, [sys.executable, "-I", CHILD_PROGRAM],
                                      os.environ, file_actions=[
                                          (os.POSIX_SPAWN_DUP2, requests_read, child.REQUEST_FD),
                                          (os.POSIX_SPAWN_DUP2, answers_write,
                                           child.RESPONSE_FD)])
        finally:
            os.close(requests_read)
            os.close(answers_write)
        self.pidfd = _pidfd(self.pid)
        self.answered = 0
        self.scan = json.JSONDecoder(  # type: ignore[attr-defined]
            parse_constant=_refuse_constant).scan_once
        self.ask({"key": self.key.hex()})  # before the child imports anything of the student's
        self.asked = b""

    def ask(self, message: dict) -> None:
        """Send the child ``message`` (a request as the grader wrote it, numbered here)."""
        body = self.asked = json.dumps(message).encode("utf-8")
        data = memoryview(len(body).to_bytes(4, "big") + body)
        while data:
            data = data[os.write(self.requests, data) :]

    def answer(self) -> dict | str | None:
        """The child's next answer; a reason (``str``) when it is none; None when it died."""
        header = self._exact(4)
        if header is None:
            return None
        length = int.from_bytes(header, "big")
        if length > child.MAX_RESPONSE_BYTES:
            return f"an answer of {length >> 20} MB"
        signed_body = self._exact(length + SIGNATURE)
        if signed_body is None:
            return None
        body, tag = signed_body[:length], signed_body[length:]
        signed = self.answered.to_bytes(8, "big") + self.asked + body
        self.answered += 1
        if not hmac.compare_digest(self.digest(self.key, signed, "sha256"), tag):
            return NOT_SIGNED
        try:
            text = body.decode("utf-8")
            message, end = self.scan(text, 0)
        except (ValueError, RecursionError, MemoryError, StopIteration):
            return "bytes that are not an answer"
        if end != len(text) or type(message) is not dict:
            return "an answer that is no record"
        return message

    def _exact(self, size: int) -> bytes | None:
        """``size`` bytes from the child, or None once it is gone (also when a process it
        started still holds its end of the pipe)."""
        parts, got = [], 0
        while got < size:
            waits = [self.answers] + ([self.pidfd] if self.pidfd is not None else [])
            ready, _, _ = select.select(waits, [], [])
            if self.answers not in ready:
                return None  # the child ended and wrote nothing more
            chunk = os.read(self.answers, min(size - got, 1 << 20))
            if not chunk:
                return None
            parts.append(chunk)
            got += len(chunk)
        return b"".join(parts)

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        self._wait()

    def _wait(self) -> int:
        """The child's end: its exit status, or minus the signal that ended it."""
        return os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])

    def end_like_the_child(self) -> NoReturn:
        """End this process as the child ended (its exit status, or its signal)."""
        with contextlib.suppress(OSError):
            os.close(self.requests)
        status = self._wait()
        if status < 0:
            with contextlib.suppress(OSError, ValueError):  # SIGKILL keeps its default
                signal.signal(-status, signal.SIG_DFL)
            os.kill(os.getpid(), -status)
        os._exit(status if status >= 0 else 128 - status)


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def problem_with(answer: dict, number: int) -> str | None:
    """Why ``answer`` cannot be the child's answer to request ``number``, or None."""
    if answer.get("id") != number or type(answer.get("id")) is not int:
        return "an answer to a question the grader did not ask"
    if not set(answer) <= ANSWER_FIELDS:
        return "an answer with fields the worker never writes"
    if type(answer.get("ok")) is not bool:
        return "an answer without a true/false `ok`"
    if not all(type(answer.get(name, "")) is str for name in ("stdout", "stderr")):
        return "text fields that are not text"
    if type(answer.get("output_dropped", 0)) is not int:
        return "a byte count that is not a number"
    error = answer.get("error")
    if not answer["ok"] and (type(error) is not dict or set(error) != ERROR_FIELDS
                             or not all(type(text) is str for text in error.values())):
        return "an error that is not a record"
    return _watch_problem(answer.get("watches", []))


def _watch_problem(watches: Any) -> str | None:
    if type(watches) is not list or len(watches) > MAX_WATCHES:
        return "watches that are not a list"
    for watch in watches:
        if type(watch) is not dict or set(watch) != set(WATCH_FIELDS):
            return "a watch that is not the guard's record"
        if not all(type(watch[name]) in kinds for name, kinds in WATCH_FIELDS.items()):
            return "a watch that is not the guard's record"
    return None


def _modules_answer() -> dict:
    return {"ok": True, "value": sorted(sys.modules), "stdout": "", "stderr": "",
            "output_dropped": 0, "watches": []}


def relayed(link: ChildLink, request: dict, number: int) -> dict:
    """The child's answer to ``request`` (numbered ``number``), checked; else a record whose
    ``forged`` says why there is none (the child is then killed)."""
    request["id"] = number
    try:
        link.ask(request)
    except OSError:  # the child is gone (a process the student's code started killed it)
        link.end_like_the_child()
    answer = link.answer()
    if answer is None:
        link.end_like_the_child()
    problem = answer if isinstance(answer, str) else problem_with(answer, number)
    if problem is not None or not isinstance(answer, dict):
        link.stop()
        return {"forged": problem}
    return answer


def keep() -> None:
    """Hold the grader's channel and relay its requests to the child until the grader
    closes the request pipe (or the child's answer is refused)."""
    child._hide_memory()
    grader = child.Channel()
    link = ChildLink()
    ready = link.answer()
    if ready is None:
        link.end_like_the_child()
    if type(ready) is not dict or ready.get("ready") is not True:
        link.stop()
        os._exit(1)
    grader.send({"ready": True, "pid": os.getpid()})
    number = 0
    while (request := grader.receive()) is not None:
        request_id = request.pop("id", None)
        if request.get("op") == MODULES_PROBE:
            answer = _modules_answer()
        else:
            number += 1
            answer = relayed(link, request, number)
        grader.send({**answer, "id": request_id})
        if "forged" in answer:
            return
    link.stop()


if __name__ == "__main__":
    keep()
