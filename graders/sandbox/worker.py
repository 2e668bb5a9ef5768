"""Parent side of the worker protocol: one long-lived interpreter per workspace, started by a
launcher.

One :class:`Worker` speaks the protocol (requests, signed answers, limits, restarts, the
message texts a student reads); a :class:`Launcher` only starts the process that answers and
connects its pipes. The instructor's launcher (:mod:`graders.sandbox.keeper_launcher`) starts
the keeper under bubblewrap; the student kit's (:mod:`graders.sandbox.plain_launcher`) starts
a plain child interpreter with a time limit. The kit vendors this module as it is.
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
from graders.sandbox.process import describe_signal

STARTUP_SECONDS = 15.0
# After this many timeouts a worker's calls fail at once: a looping submission must not make
# every Hypothesis example (and every shrink step) wait out the full time limit.
MAX_TIMEOUTS = 2
MAX_RESPONSE = 64 * 1024 * 1024
SIGNATURE = 32  # HMAC-SHA256 of every answer (see child.Channel.send, signed by the keeper)
REFUSED_STATUS = 86  # child_guard.REFUSED_STATUS: the guard stopped the student's code
REFUSED_MARKER = "graders-refused:"


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
                _describe_exception(op, error, self.limits),
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
            self.close()
            _timed_out(
                f"`{op}` did not finish within {limit:g} s and was stopped "
                "(an infinite loop, or a search that is far too slow).",
                limit,
            )
        assert isinstance(response, dict) and self.link is not None
        if isinstance(response.get("forged"), str):  # the keeper refused the child's answer
            self._forged(op, response["forged"][:300])
        problem = _malformed(response, request_id)
        if problem:
            self._forged(op, problem)
        self.watches = [w for w in response.get("watches") or [] if isinstance(w, dict)]
        return self.link.as_seen(response)

    def _forged(self, op: str, problem: str) -> NoReturn:
        self.close()
        raise StudentCrash(
            f"`{op}`: your code wrote into the grader's private answer channel ({problem}); "
            "the answer was thrown away and your code was stopped.",
            details={"kind": "protocol"},
        )

    def _crashed(self, op: str) -> NoReturn:
        link = self.link
        status = link.ended() if link is not None else None
        tail = _stderr_tail(link.as_seen(link.stderr())) if link is not None else ""
        out_tail = link.stdout()[-1500:] if link is not None else ""
        flooded = link is not None and link.flooded
        self.close()
        raise StudentCrash(
            f"`{op}`: {_describe_exit(status, self.limits, flooded, tail)}",
            details={"kind": "crash", "exit_status": status, "stderr": tail, "stdout": out_tail},
        )

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


def _timed_out(message: str, seconds: float | None) -> NoReturn:
    # One raise site for every timeout: Hypothesis tells failures apart by where they were
    # raised, and a skipped call must count as the same failure as the timeout before it.
    raise StudentTimeout(message, details={"kind": "timeout", "seconds": seconds})


def worker_lifetime_limits(limits: Limits) -> Limits:
    """A worker serves many calls: its hard CPU cap is a lifetime budget, the child moves the
    soft cap per call (see ``child.allow_cpu``)."""
    return dataclasses.replace(limits, cpu_seconds=max(120, 20 * limits.cpu_seconds))


def _describe_exception(op: str, error: dict[str, Any], limits: Limits) -> str:
    kind = error.get("type", "Exception")
    message = error.get("message", "")
    if kind == "NotPlainData":
        return (
            f"`{op}`: your code returned {message}; expected plain values (numbers, text, lists)."
        )
    if kind == "SystemExit":
        return f"`{op}`: your code called exit()/sys.exit() ({message or 'no status'})."
    if kind == "EOFError":
        return f"`{op}`: your code asked for more input() than the test provides."
    if kind == "MemoryError":
        return f"`{op}`: your code ran out of memory (MemoryError; at most {limits.memory_mb} MB)."
    if kind == "RecursionError":
        return f"`{op}`: your code recursed too deeply (RecursionError: {message})."
    if message.startswith("[Errno 28]"):
        return (
            f"`{op}`: your code filled the {limits.disk_mb} MB it may write in its folder "
            f"({kind}: {message})."
        )
    return f"`{op}` raised {kind}: {message}".rstrip(": ")


def _describe_exit(
    status: int | None, limits: Limits, flooded: bool = False, stderr: str = ""
) -> str:
    if flooded:
        return f"your code printed more than {limits.output_kb} KB and was stopped."
    if status is None:
        return "the process running your code stopped answering."
    refused = [line for line in stderr.splitlines() if line.startswith(REFUSED_MARKER)]
    if status == REFUSED_STATUS and refused:
        reason = refused[-1][len(REFUSED_MARKER) :].strip()[:300]
        return f"{reason}; the grader refused it and stopped your code."
    if status < 0:
        return f"the process running your code {describe_signal(-status, limits)}."
    if 128 < status < 128 + 65:  # bubblewrap's status for a command killed by a signal
        return f"the process running your code {describe_signal(status - 128, limits)}."
    if status == 0:
        return (
            "the process running your code ended (exit status 0) in the middle of the "
            "call: did your code call os._exit() or exit()?"
        )
    last = stderr.strip().splitlines()[-1:]
    cause = (
        f": {last[0][:300]}" if last else " (did your code call exit(), sys.exit() or os._exit()?)"
    )
    return f"the process running your code ended with exit status {status}{cause}."


def _stderr_tail(text: str) -> str:
    """The end of a crashed worker's stderr, with the guard's reason kept even when the
    student's own output came first."""
    refused = [line for line in text.splitlines() if line.startswith(REFUSED_MARKER)]
    tail = text[-1500:]
    if refused and refused[-1] not in tail:
        tail = f"{tail}\n{refused[-1]}"
    return tail


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
