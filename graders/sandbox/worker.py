"""Parent side of the worker protocol: one long-lived interpreter per workspace, started by a
launcher.

One :class:`Worker` speaks the protocol (requests, signed answers, limits, restarts; the
texts a student reads are in :mod:`graders.sandbox.worker_words`); a :class:`Launcher` only
starts the process that answers and connects its pipes. The instructor's launcher
(:mod:`graders.sandbox.keeper_launcher`) starts the keeper under bubblewrap; the student kit's
(:mod:`graders.sandbox.plain_launcher`) starts a plain child interpreter with a time limit.
The kit vendors this module as it is.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hmac
import json
import secrets
import struct
import time
from pathlib import Path
from typing import Any, NoReturn, Protocol

from graders.errors import GraderError, StudentCrash, StudentError, StudentTimeout
from graders.sandbox.isolation import Limits
from graders.sandbox.worker_words import (
    IMPORT_MARK,
    describe_exception,
    describe_exit,
    died_importing,
    import_words,
    stderr_tail,
    timeout_words,
)

STARTUP_SECONDS = 15.0
# After this many timeouts a worker's calls fail at once: a looping submission must not make
# every Hypothesis example (and every shrink step) wait out the full time limit.
MAX_TIMEOUTS = 2
MAX_RESPONSE = 64 * 1024 * 1024
SIGNATURE = 32  # HMAC-SHA256 of every answer (see child.Channel.send, signed by the keeper)


class Link(Protocol):
    """A started worker process, as its launcher connected it: bytes in, bytes out."""

    @property
    def flooded(self) -> bool:
        """Whether it was stopped because its output passed the cap."""

    def send(self, data: bytes) -> None:
        """Write all of ``data`` to the request pipe (``OSError`` once the process is gone)."""

    def read(self, size: int, deadline: float) -> bytes | str | None:
        """Exactly ``size`` answer bytes; ``"timeout"`` at ``deadline``; None at the end."""

    def ended(self) -> int | None:
        """After a failed call: the exit status (killed if it still runs; None if unknown),
        once what it wrote last has been read."""

    def stdout(self) -> str:
        """What the process printed outside calls (capped)."""

    def stderr(self) -> str:
        """What the process wrote to stderr (capped)."""

    def as_seen(self, value: Any) -> Any:
        """``value`` with paths named as the instructor's sandbox names them."""

    def close(self) -> None:
        """Kill the process and everything it started; remove its scratch copy."""


class Launcher(Protocol):
    """Starts the process that answers a :class:`Worker`'s requests."""

    def start(self, workspace: Path, harness: Path, limits: Limits) -> Link:
        """A fresh copy of ``workspace`` and, in it, the worker loop of ``harness`` (the
        harness folder: ``child.py``, the pack's driver), within ``limits``."""


class Worker:
    """Calls operations of a pack's driver in a worker process and returns plain data.

    Under the instructor's launcher the worker's first process is the keeper (``keeper.py``):
    it holds this channel and its key and runs no student code; the driver and the student's
    code run in its child, whose answers it checks before signing them
    (docs/threat-model.md).

    The process starts on first use and is started again after a timeout or a crash, so one
    misbehaving call costs only that call.
    """

    def __init__(self, launcher: Launcher, workspace: Path, harness: Path, limits: Limits,
                 label: str) -> None:
        self.launcher = launcher
        self.workspace = workspace
        self.harness = harness
        self.limits = limits
        self.label = label
        self.link: Link | None = None
        # Signing (see child.Channel.send): the key, the answers read, the last request sent.
        self._key = b""
        self._answers = 0
        self._asked = b""
        self.calls = 0
        self.restarts = 0
        self.timeouts = 0
        # Student modules whose import ended a process of this worker: how, for the later
        # calls that would import them (the child raises DiedImporting instead).
        self.died: dict[str, Died] = {}
        # op -> what was said when a call of op forged its answer: op's later calls are not
        # run (only code writing into the answer channel does that, never honest work).
        self.forged: dict[str, str] = {}
        # What the guard's recursion watches found during the last call (see child_guard).
        self.watches: list[dict[str, Any]] = []

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        self.link = self.launcher.start(self.workspace, self.harness, self.limits)
        self._key, self._answers = secrets.token_bytes(32), 0
        with contextlib.suppress(OSError):  # a worker that died at once is reported below
            self._send({"key": self._key.hex()})  # before any student code exists
        self._asked = b""
        ready = self._receive(time.monotonic() + STARTUP_SECONDS)
        if not isinstance(ready, dict) or not ready.get("ready"):
            detail = self.link.stderr()[-2000:] if self.link else ""
            self.close()
            raise GraderError(f"the worker for {self.label} did not start: {detail}")

    def close(self) -> None:
        """Stop the process and everything it started; remove its scratch copy."""
        if self.link is not None:
            self.link.close()
        self.link = None

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- calls -----------------------------------------------------------------------------
    def call(
        self,
        op: str,
        *args: Any,
        stdin: str | None = None,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> Any:
        """Run driver operation ``op`` and return its plain value.

        Raises :class:`StudentError`, :class:`StudentTimeout` or :class:`StudentCrash` when the
        student's code misbehaves, :class:`GraderError` when the sandbox itself fails.
        """
        response = self.call_raw(op, *args, stdin=stdin, timeout=timeout, **kwargs)
        if not response.get("ok"):
            error = response.get("error") or {}
            raise StudentError(
                describe_exception(op, error, self.limits),
                details={"kind": "exception", **error, "stdout": response.get("stdout", "")},
            )
        return response.get("value")

    def call_raw(
        self,
        op: str,
        *args: Any,
        stdin: str | None = None,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """Like :meth:`call` but returns the whole response (value, stdout, stderr, error)."""
        if self.timeouts >= MAX_TIMEOUTS:
            _timed_out(
                f"`{op}` was not run: your code already ran out of time {self.timeouts} "
                "times, so its remaining calls count as timed out.",
                None,
            )
        if op in self.forged:
            self._forged(op, None)
        if self.link is None:
            if self.calls:
                self.restarts += 1
            self.start()
        self.calls += 1
        self.watches = []
        # Unguessable, so that an answer the student's code forges into the response pipe is
        # caught (see ``_malformed``).
        request_id = secrets.randbits(62)
        request = {
            "id": request_id,
            "op": op,
            "args": list(args),
            "kwargs": kwargs,
            "stdin": stdin,
            "cpu_seconds": self.limits.cpu_seconds,
        }
        if self.died:
            request["died"] = sorted(self.died)
        limit = timeout if timeout is not None else self.limits.per_call
        try:
            self._send(request)
        except OSError:
            self._crashed(op)
        response = self._receive(time.monotonic() + limit)
        if response is None:
            self._crashed(op)
        if isinstance(response, Garbled):
            self._forged(op, response.reason)
        if response == "timeout":
            self.timeouts += 1
            # Not kept as a death at import: a call with a longer limit may get through a
            # slow import (a pack may give one call 15 s, the others 2 s).
            module = died_importing(self.link.stderr()) if self.link is not None else None
            self.close()
            _timed_out(timeout_words(op, limit, module), limit)
        assert isinstance(response, dict) and self.link is not None
        if isinstance(response.get("forged"), str):  # the keeper refused the child's answer
            self._forged(op, response["forged"][:300])
        problem = _malformed(response, request_id)
        if problem:
            self._forged(op, problem)
        self.watches = [w for w in response.get("watches") or [] if isinstance(w, dict)]
        error = response.get("error") if not response.get("ok") else None
        if isinstance(error, dict) and error.get("type") == "DiedImporting" \
                and error.get("message") in self.died:  # a module whose import ended a process
            self._crashed(op, self.died[error["message"]])
        return self.link.as_seen(response)

    def _forged(self, op: str, problem: str | None) -> NoReturn:
        # One raise site, as for _crashed: a call not run after a forgery is that failure.
        if problem is not None:
            self.close()
            self.forged.setdefault(
                op, f"`{op}`: your code wrote into the grader's private answer channel "
                f"({problem}); the answer was thrown away and your code was stopped.")
        raise StudentCrash(self.forged[op], details={"kind": "protocol"})

    def _crashed(self, op: str, died: Died | None = None) -> NoReturn:
        # One raise site: Hypothesis tells failures apart by where they were raised, and a
        # call failed as an earlier process's import of its module did is the same failure.
        died = died or self._ended()
        raise StudentCrash(f"`{op}`: {died.why}", details=died.details)

    def _ended(self) -> Died:
        """Why the process ended during a call; kept for later calls when it died importing
        a student module."""
        link = self.link
        status = link.ended() if link is not None else None
        stderr = link.stderr() if link is not None else ""
        module = died_importing(stderr)
        tail = stderr_tail(link.as_seen(IMPORT_MARK.sub("", stderr))) if link is not None else ""
        out_tail = link.stdout()[-1500:] if link is not None else ""
        flooded = link is not None and link.flooded
        self.close()
        why = describe_exit(status, self.limits, flooded, tail) + import_words(module)
        details = {"kind": "crash", "exit_status": status, "stderr": tail, "stdout": out_tail}
        died = Died(why, details)
        if module:
            self.died[module] = died
        return died

    def _send(self, message: dict[str, Any]) -> None:
        if self.link is None:
            raise OSError("no worker")
        data = self._asked = json.dumps(message).encode("utf-8")
        self.link.send(struct.pack(">I", len(data)) + data)

    def _receive(self, deadline: float) -> dict[str, Any] | Garbled | str | None:
        """The next answer; ``"timeout"``; None when the worker is gone; :class:`Garbled` for
        bytes that are no answer (the child never sends such: the student's code wrote them)."""
        if self.link is None:
            return None
        header = self.link.read(4, deadline)
        if not isinstance(header, bytes):
            return header
        (length,) = struct.unpack(">I", header)
        if length > MAX_RESPONSE:
            return Garbled(f"an answer of {length >> 20} MB")
        signed_body = self.link.read(length + SIGNATURE, deadline)
        if not isinstance(signed_body, bytes):
            return signed_body
        body, tag = signed_body[:length], signed_body[length:]
        signed = struct.pack(">Q", self._answers) + self._asked + body
        self._answers += 1
        if not hmac.compare_digest(hmac.digest(self._key, signed, "sha256"), tag):
            return Garbled("an answer the worker did not sign")
        try:
            message = json.loads(body.decode("utf-8"))
        except (ValueError, RecursionError, MemoryError):  # not JSON, nested too deep, huge
            return Garbled("bytes that are not an answer")
        if b"\\ud" in body or b"\\uD" in body:  # a forged lone surrogate breaks reports
            message = _scrub(message)
        return message if isinstance(message, dict) else Garbled("an answer that is no record")


@dataclasses.dataclass(frozen=True)
class Garbled:
    """Something in the response pipe that the worker loop cannot have written."""

    reason: str


@dataclasses.dataclass(frozen=True)
class Died:
    """How a process of the worker ended during a call: kept, by module, when it ended while
    importing a student module (an exit, a signal, a refusal, a flood)."""

    why: str
    details: dict[str, Any]


def _timed_out(message: str, seconds: float | None) -> NoReturn:
    # One raise site for every timeout: Hypothesis tells failures apart by where they were
    # raised, and a skipped call must count as the same failure as the timeout before it.
    raise StudentTimeout(message, details={"kind": "timeout", "seconds": seconds})


def worker_lifetime_limits(limits: Limits) -> Limits:
    """A worker serves many calls: its hard CPU cap is a lifetime budget, the child moves the
    soft cap per call (see ``child.allow_cpu``)."""
    return dataclasses.replace(limits, cpu_seconds=max(120, 20 * limits.cpu_seconds))


def _malformed(response: dict[str, Any], request_id: int) -> str | None:
    """Why ``response`` cannot be the worker's answer to request ``request_id``, or None.

    The student's code shares the worker's process and can write into the response pipe (fd
    4); what it writes is checked like any other untrusted data, and never reaches a test."""
    if response.get("id") != request_id:
        return "an answer to a question the grader did not ask"
    if not isinstance(response.get("ok"), bool):
        return "an answer without a true/false `ok`"
    texts = [response.get("stdout", ""), response.get("stderr", "")]
    if not response["ok"]:
        error = response.get("error")
        if not isinstance(error, dict):
            return "an error that is not a record"
        texts += [error.get("type", ""), error.get("message", ""), error.get("traceback", "")]
    if not all(isinstance(text, str) for text in texts):
        return "text fields that are not text"
    if not isinstance(response.get("output_dropped", 0), int):
        return "a byte count that is not a number"
    if not isinstance(response.get("watches", []), list):
        return "watches that are not a list"
    return None


def _scrub(value: Any) -> Any:
    """``value`` with every lone surrogate in its text replaced (they cannot be written out)."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, list):
        return [_scrub(item) for item in value]
    if isinstance(value, dict):
        return {_scrub(key): _scrub(item) for key, item in value.items()}
    return value
