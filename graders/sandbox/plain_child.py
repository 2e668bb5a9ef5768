"""The worker loop of the student kit's plain launcher (:mod:`graders.sandbox.plain_launcher`):
the engine's own loop (``child.py``, beside this file in the harness folder) on the standard
pipes, so it runs on Linux, macOS and Windows alike.

Requests arrive on stdin and answers leave on the ORIGINAL stdout; file descriptor 1 is then
pointed at stderr, so whatever the student's code prints outside a call never mixes with the
answers. Answers are framed and signed as the keeper signs them (``child.Channel.send``), so
the one :class:`~graders.sandbox.worker.Worker` reads both. Standard library only.
"""

from __future__ import annotations

import hmac
import json
import os
import struct
import sys
import types
from typing import TYPE_CHECKING, BinaryIO

if "resource" not in sys.modules:
    try:
        import resource  # noqa: F401 - POSIX only
    except ImportError:  # Windows: CPU time is bounded by the parent's wall-clock limit
        shim = types.ModuleType("resource")
        shim.RLIMIT_CPU, shim.RLIM_INFINITY, shim.RUSAGE_SELF = 0, -1, 0  # type: ignore[attr-defined]
        shim.getrusage = lambda who: types.SimpleNamespace(  # type: ignore[attr-defined]
            ru_utime=0.0, ru_stime=0.0)
        shim.getrlimit = lambda which: (-1, -1)  # type: ignore[attr-defined]
        shim.setrlimit = lambda which, limits: None  # type: ignore[attr-defined]
        sys.modules["resource"] = shim

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
if TYPE_CHECKING:
    from graders.sandbox import child
else:
    import child  # the engine's own worker loop, copied beside this file


class Pipes:
    """The answer channel on stdin/stdout: read requests, send signed answers."""

    def __init__(self) -> None:
        self.requests = os.fdopen(os.dup(0), "rb", buffering=0)
        self.responses = os.fdopen(os.dup(1), "wb", buffering=0)
        os.dup2(2, 1)
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as we do
        first = self.receive() or {}
        self.key, self.sent, self.asked = bytes.fromhex(str(first.get("key", ""))), 0, b""

    def receive(self) -> dict | None:
        header = child.read_exact(self.requests, 4)
        if len(header) < 4:
            return None
        body = child.read_exact(self.requests, struct.unpack(">I", header)[0])
        self.asked = body
        return json.loads(body.decode("utf-8"))

    def send(self, message: dict) -> None:
        body = child.sendable(message)
        tag = hmac.digest(self.key, struct.pack(">Q", self.sent) + self.asked + body, "sha256")
        self.sent += 1
        _write(self.responses, struct.pack(">I", len(body)) + body + tag)


def _write(stream: BinaryIO, data: bytes) -> None:
    view = memoryview(data)
    while view:  # an unbuffered write may take only part of a large answer
        view = view[stream.write(view) or 0:]
    stream.flush()


def serve() -> None:
    """Answer requests until the parent closes stdin."""
    pipes = Pipes()
    limit = int(os.environ.get("GRADER_OUTPUT_LIMIT", "262144"))
    sys.path.insert(1, os.getcwd())
    import grader_driver  # noqa: PLC0415 - the pack's driver, copied beside this file

    ops = child.operations(grader_driver)
    pipes.send({"ready": True, "pid": os.getpid()})
    while (request := pipes.receive()) is not None:
        request_id = request.pop("id", None)
        pipes.send({**child.run_call(ops, request, limit), "id": request_id})


if __name__ == "__main__":
    serve()
