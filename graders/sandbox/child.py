"""The worker loop that runs INSIDE the sandbox, next to the student's code.

Copied into the sandbox as ``/harness/child.py`` with the pack's driver as
``/harness/grader_driver.py``. Standard library only: nothing from ``graders`` is importable here.

Its parent is the keeper (``keeper.py``), which holds the grader's pipes, key and request ids
and runs no student code. The keeper writes requests to fd ``REQUEST_FD`` and reads responses
from fd ``RESPONSE_FD``: a 4-byte big-endian length, then UTF-8 JSON. Student ``print`` output
never shares these pipes: during a call ``sys.stdout``/``sys.stderr`` are capped buffers
returned in the response; the real fds 1 and 2 go to a pipe the grader drains and caps.

The request number lives only in :func:`serve`'s frame (the guard refuses frames); the pipes
are closed in forked children; a student thread left running stops the worker; answers are
encoded by functions bound before student code ran (:class:`Channel`) and signed with the
keeper's key for this child; the process is non-dumpable (:func:`_hide_memory`). Each answer
carries ``watches`` (the guard's recursion watches), checked by the keeper as plain data.
"""

from __future__ import annotations

import _json
import contextlib
import io
import json
import os
import resource
import struct
import sys
import traceback

TYPE_CHECKING = False  # the keeper imports this module too, and never needs `typing`
if TYPE_CHECKING:
    from typing import BinaryIO

REQUEST_FD = 3
RESPONSE_FD = 4
HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))
MAX_DEPTH = 50
MAX_RESPONSE_BYTES = 16 * 1024 * 1024  # the parent refuses more than 64 MB
REFUSED_STATUS = 86  # the guard stopped student code (child_guard.REFUSED_STATUS)


class NotPlainData(TypeError):
    """A value that cannot cross the trust boundary."""


class CappedText(io.TextIOBase):
    """A text sink that keeps the first ``limit`` characters and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        room = self.limit - self.size
        if room > 0:
            self.parts.append(text[:room])
            self.size += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def getvalue(self) -> str:
        return "".join(self.parts)


def to_plain(value: object, depth: int = 0) -> object:
    """Copy ``value`` into exact builtin types, refusing anything else.

    Subclasses of builtins are reduced to their base value, so an ``int`` subclass whose
    ``__eq__`` always answers True arrives in the parent as a genuine ``int``.
    """
    if depth > MAX_DEPTH:
        raise NotPlainData("value nested too deeply")
    if value is None or type(value) in (bool, str):
        return value
    if isinstance(value, bool):
        return bool.__bool__(value)
    if isinstance(value, int):
        return int.__index__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (list, tuple)):
        return [to_plain(item, depth + 1) for item in list.__iter__(list(value))]
    if isinstance(value, dict):
        return {_plain_key(key): to_plain(item, depth + 1) for key, item in dict.items(dict(value))}
    raise NotPlainData(f"a {type(value).__name__} object, not plain data")


def _plain_key(key: object) -> str:
    if isinstance(key, str):
        return str.__str__(key)
    if isinstance(key, (int, float, bool)) or key is None:
        return json.dumps(to_plain(key))
    raise NotPlainData(f"a dict key of type {type(key).__name__}")


def read_exact(stream: BinaryIO, size: int) -> bytes:
    """``size`` bytes, or fewer only at the end of the stream: a pipe hands over at most its
    buffer (64 KiB) per read, so one read of a large request would come back short."""
    parts = []
    while size > 0:
        chunk = stream.read(size)
        if not chunk:
            break
        parts.append(chunk)
        size -= len(chunk)
    return b"".join(parts)


def encode(message: dict) -> bytes:
    """UTF-8 JSON; a lone surrogate in student text (``"\\ud800"``) becomes ``?``."""
    return json.dumps(message, allow_nan=False, ensure_ascii=False).encode("utf-8", "replace")


def sendable(response: dict, encoder=None) -> bytes:
    """``response`` encoded (by ``encoder``, else :func:`encode`), or, when its value cannot
    be sent (nan, a 100 000-digit int, a 100 MB string), the same response turned into a
    NotPlainData error: the student is told why, instead of the worker dying on the way out."""
    encoder = encoder or encode
    try:
        data = encoder(response)
    except (ValueError, TypeError, OverflowError, RecursionError, MemoryError) as exc:
        problem = str(exc)[:300]
        if "float" in problem:
            problem = "nan or infinity, which plain data cannot hold"
        reason = f"a value that cannot be sent back ({problem})"
    else:
        if len(data) <= MAX_RESPONSE_BYTES:
            return data
        reason = (
            f"a value too large to send back ({len(data) >> 20} MB; the most is "
            f"{MAX_RESPONSE_BYTES >> 20} MB)"
        )
    fallback = {key: value for key, value in response.items() if key != "value"}
    fallback["ok"] = False
    fallback["error"] = {"type": "NotPlainData", "message": reason, "traceback": ""}
    return encoder(fallback)


def student_traceback(exc: BaseException) -> str:
    """The traceback without the harness's own frames (they mean nothing to a student)."""
    frames = [
        frame
        for frame in traceback.extract_tb(exc.__traceback__)
        if not os.path.abspath(frame.filename).startswith(HARNESS_DIR)
    ]
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(exc), exc)
    return "".join(lines)


def describe_error(exc: BaseException) -> dict:
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - a student exception whose __str__ raises
        message = "<exception message could not be shown>"
    return {
        "type": type(exc).__name__,
        "message": message[:2000],
        "traceback": student_traceback(exc)[-8000:],
    }


def allow_cpu(seconds: float) -> None:
    """Give the next call ``seconds`` of CPU on top of what this worker has used so far.

    The hard limit (set by the parent) bounds the worker's whole life; the soft limit moves per
    call, so many short calls are fine and one runaway call gets SIGXCPU.
    """
    if seconds <= 0:
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = used.ru_utime + used.ru_stime
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(spent + seconds) + 1
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def operations(driver: object) -> dict:
    """The driver's public functions, taken once before any student code runs: rebinding
    ``grader_driver.apply`` from student code later changes nothing the parent can call."""
    return {
        name: value
        for name, value in vars(driver).items()
        if callable(value) and not name.startswith("_")
        and getattr(value, "__module__", None) == getattr(driver, "__name__", None)
    }


def mark_student_imports(died: list) -> None:
    """``harness_kit.import_student`` (the drivers' way in) marks each student module's import
    on fd 2, where the parent reads which import a dead process never finished, and does not
    import again the modules ``died`` whose import ended an earlier process."""
    kit = sys.modules.get("harness_kit")
    if kit is not None:
        vars(kit).update(MARKS_FD=2, DIED=frozenset(map(str, died)))


def run_call(ops: dict, request: dict, limit: int) -> dict:
    """Run one driver operation with captured stdio; never raises.

    From :func:`serve`, ``request`` carries no id: the id stays in :func:`serve`'s frame,
    which student code cannot reach (the guard refuses frames), so nothing the student can
    patch ever sees it."""
    allow_cpu(float(request.get("cpu_seconds") or 0))
    mark_student_imports(request.get("died") or [])
    out, err = CappedText(limit), CappedText(limit)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.StringIO(request.get("stdin") or "")
    sys.stdout, sys.stderr = out, err
    response: dict = {}
    try:
        if request["op"] not in ops:
            raise AttributeError(f"the grader's driver has no operation {request['op']!r}")
        function = ops[request["op"]]
        value = function(*request.get("args", []), **request.get("kwargs", {}))
        response["value"] = to_plain(value)
        response["ok"] = True
    except NotPlainData as exc:
        response["ok"] = False
        response["error"] = {"type": "NotPlainData", "message": str(exc), "traceback": ""}
    except BaseException as exc:  # noqa: BLE001 - SystemExit and KeyboardInterrupt included
        response["ok"] = False
        response["error"] = describe_error(exc)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    response["stdout"] = out.getvalue()
    response["stderr"] = err.getvalue()
    response["output_dropped"] = out.dropped + err.dropped
    if "id" in request:  # the starter kit's loop (graders/kit) still passes it in
        response["id"] = request["id"]
    return response


class Channel:
    """The protocol pipes, with every function they use bound when the worker starts.

    Student code may rebind ``json.dumps``, ``struct.pack``, ``os.write`` or this module's
    functions (``patch_worker_protocol``); what is bound here is what runs. Encoding goes
    through the C encoder and decoder of ``_json``, which call no Python code for plain data.
    """

    def __init__(self) -> None:
        header = struct.Struct(">I")
        self.pack, self.unpack, self.count = header.pack, header.unpack, struct.Struct(">Q").pack
        self.read, self.write = os.read, os.write
        self.requests, self.responses = REQUEST_FD, RESPONSE_FD
        self.scan = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
        self.encoder = _json.make_encoder(
            None, _unsendable, _json.encode_basestring, None, ":", ",", False, False, False
        )
        self.join, self.tasks, self.digest = "".join, os.listdir, _hmac_digest()
        self.shape = sendable  # bound now: student code may rebind the module's
        for fd in (REQUEST_FD, RESPONSE_FD):  # never inherited by a program student code runs
            os.set_inheritable(fd, False)
        # nor kept by a fork: a leftover child could read the next request
        os.register_at_fork(after_in_child=_close_protocol_fds)
        # The parent's first message is the key that signs every answer; it arrives before
        # any student code exists, so no relay can have seen it (see :meth:`send`).
        first = self.receive() or {}
        self.key, self.sent, self.asked = bytes.fromhex(str(first.get("key", ""))), 0, b""

    def receive(self) -> dict | None:
        header = self._exact(4)
        if len(header) < 4:
            return None
        body = self.asked = self._exact(self.unpack(header)[0])
        message, _ = self.scan(body.decode("utf-8"), 0)
        return message

    def _exact(self, size: int) -> bytes:
        parts, got = [], 0
        while got < size:
            chunk = self.read(self.requests, min(size - got, 1 << 20))
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
        return b"".join(parts)

    def encode(self, message: dict) -> bytes:
        """UTF-8 JSON; a lone surrogate in student text (``"\\ud800"``) becomes ``?``."""
        return self.join(self.encoder(message, 0)).encode("utf-8", "replace")

    def send(self, message: dict) -> None:
        """Write ``message`` with its signature: HMAC-SHA256, under the key only this object
        holds, of the answer's number, the request it answers (as received) and the answer.
        Student code can write into the pipes, replace them (``dup2``) or hand them to a
        relay process, but cannot sign: the parent throws away every answer not signed so."""
        body = self.shape(message, self.encode)
        signed = self.count(self.sent) + self.asked + body
        tag = self.digest(self.key, signed, "sha256")
        self.sent += 1
        data = memoryview(self.pack(len(body)) + body + tag)
        while data:  # a write may take only part of a large answer
            data = data[self.write(self.responses, data) :]

    def lone_thread(self) -> bool:
        """Whether the worker runs one thread only (a thread left running by student code
        could read the next request)."""
        try:
            return len(self.tasks("/proc/self/task")) <= 1
        except OSError:
            return True


def _hmac_digest():
    """The C function that signs answers (one call, no Python frame on the way)."""
    try:
        from _hashlib import hmac_digest  # noqa: PLC0415 - bound once, before student code
    except ImportError:  # a Python built without OpenSSL
        from hmac import digest as hmac_digest  # noqa: PLC0415
    return hmac_digest


def _hide_memory() -> None:
    """Make this process non-dumpable (``prctl(PR_SET_DUMPABLE, 0)``): its ``/proc/<pid>/mem``,
    ``fd`` and ``environ`` become root's, so neither the student's code in it nor any process
    it starts can read or write its memory (the key, the guard's watch) or ptrace it. Done
    through ctypes before any student code exists; ctypes is then dropped from
    ``sys.modules``, so student code would have to import it again (the guard refuses)."""
    try:
        import ctypes  # noqa: PLC0415

        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # 4: PR_SET_DUMPABLE
    except (ImportError, OSError, AttributeError):
        pass
    finally:
        for name in [name for name in sys.modules if name.partition(".")[0] in
                     ("ctypes", "_ctypes")]:
            del sys.modules[name]


def _unsendable(value: object) -> object:
    raise TypeError(f"a {type(value).__name__} object, not plain data")


def _close_protocol_fds() -> None:
    for fd in (REQUEST_FD, RESPONSE_FD):
        with contextlib.suppress(OSError):
            os.close(fd)


def serve() -> None:
    """Answer requests until the parent closes the request pipe.

    Order matters: the protocol's functions are bound and the signing key read
    (:class:`Channel`), the process is made non-dumpable, the driver (and its helpers) are
    imported and its operations taken, then the guard is installed and locked from this
    frame; only then does any request, so any student code, run."""
    channel = Channel()
    _hide_memory()
    import typing  # noqa: F401, PLC0415 - loaded before the guard, as student code has found it
    limit = int(os.environ.get("GRADER_OUTPUT_LIMIT", "262144"))
    # The harness first: a student's own `grader_driver.py` or `driver_*.py` (helper modules
    # travel with a submission) must never stand in for the pack's driver.
    sys.path.insert(0, HARNESS_DIR)
    sys.path.insert(1, os.getcwd())
    import grader_driver  # noqa: PLC0415 - the pack's driver, copied beside this file

    ops = operations(grader_driver)
    run, audit = run_call, sys.audit
    if os.path.exists(os.path.join(HARNESS_DIR, "child_guard.py")):
        import child_guard  # noqa: PLC0415 - the guard, copied beside this file

        child_guard.install(HARNESS_DIR)
        audit("graders.lock")
    refused, leftover = REFUSED_STATUS, "your code left a thread running after the call"
    channel.send({"ready": True, "pid": os.getpid()})
    while (request := channel.receive()) is not None:
        request_id = request.pop("id", None)
        response = dict(run(ops, request, limit))
        if not channel.lone_thread():
            channel.write(2, f"\ngraders-refused: {leftover}\n".encode())
            os._exit(refused)
        watches: list = []
        audit("graders.findings", watches)
        response["id"], response["watches"] = request_id, watches
        channel.send(response)


if __name__ == "__main__":
    serve()
