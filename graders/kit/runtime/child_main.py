# mypy: ignore-errors
"""The pre-check's child runner: the engine's worker loop (``child.py``, copied beside this
file) on the standard pipes, so it runs on Linux, macOS and Windows alike.

Requests arrive on stdin and answers leave on the ORIGINAL stdout; file descriptor 1 is then
pointed at stderr, so whatever the student's code prints outside a call never mixes with the
answers. Same messages, same plain-data rules as the instructor's sandboxed worker.
"""

import os
import sys
import types

if "resource" not in sys.modules:
    try:
        import resource  # noqa: F401 - POSIX only
    except ImportError:  # Windows: CPU time is bounded by the parent's wall-clock limit
        shim = types.ModuleType("resource")
        shim.RLIMIT_CPU, shim.RLIM_INFINITY, shim.RUSAGE_SELF = 0, -1, 0
        shim.getrusage = lambda who: types.SimpleNamespace(ru_utime=0.0, ru_stime=0.0)
        shim.getrlimit = lambda which: (-1, -1)
        shim.setrlimit = lambda which, limits: None
        sys.modules["resource"] = shim

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import child  # noqa: E402 - the engine's own worker loop, copied beside this file


def serve() -> None:
    """Answer requests until the parent closes stdin."""
    requests = os.fdopen(os.dup(0), "rb", buffering=0)
    responses = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as we do
    limit = int(os.environ.get("GRADER_OUTPUT_LIMIT", "262144"))
    sys.path.insert(1, os.getcwd())
    import grader_driver  # noqa: PLC0415 - the pack's driver, copied beside this file

    ops = child.operations(grader_driver)
    child.write_message(responses, {"ready": True, "pid": os.getpid()})
    while (request := child.read_message(requests)) is not None:
        child.write_message(responses, child.run_call(ops, request, limit))


if __name__ == "__main__":
    serve()
