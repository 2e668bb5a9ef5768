"""The words a student reads when the code a :class:`~graders.sandbox.worker.Worker` runs
fails: an exception, an exit, a signal, a refusal by the guard, a hang or a crash while
importing a module; and the marks the worker loop writes on fd 2 that tell them apart. The kit
vendors this module as it is."""

from __future__ import annotations

import re
from typing import Any

from graders.sandbox.isolation import Limits
from graders.sandbox.process import describe_signal

REFUSED_STATUS = 86  # child_guard.REFUSED_STATUS: the guard stopped the student's code
REFUSED_MARKER = "graders-refused:"
# harness_kit.import_student's marks on fd 2 around a student module's import (see child.py).
IMPORTING, IMPORTED = "graders-importing:", "graders-imported:"
IMPORT_MARK = re.compile(rf"\n?(?:{IMPORTING}|{IMPORTED}) [^\n]*\n")


def died_importing(stderr: str) -> str | None:
    """The student module whose import a worker's process began and never finished, from
    ``harness_kit.import_student``'s marks on its fd 2 (None: every import it began ended).
    Student code can write such lines too, but only to fail its own later calls."""
    begun: list[str] = []
    for line in stderr.splitlines():
        if line.startswith(IMPORTING):
            begun.append(line[len(IMPORTING):].strip())
        elif line.startswith(IMPORTED) and line[len(IMPORTED):].strip() in begun:
            begun.remove(line[len(IMPORTED):].strip())
    return begun[-1] if begun else None


def import_words(module: str | None) -> str:
    """What a student reads when their process ended importing ``module``."""
    return (f" It happened while importing {module}.py (the code outside its functions runs "
            "then): calls that need it fail the same way without running it again."
            if module else "")


def timeout_words(op: str, limit: float | None, module: str | None) -> str:
    """What a student reads when a call of ``op`` ran past ``limit``, in ``module``'s import
    if named (not kept as that module's death: a longer limit may get through it)."""
    stopped_in = (f" It was stopped while importing {module}.py (the code outside its "
                  "functions runs then)." if module else "")
    return (f"`{op}` did not finish within {limit:g} s and was stopped (an infinite loop, or a "
            f"search that is far too slow).{stopped_in}")


def describe_exception(op: str, error: dict[str, Any], limits: Limits) -> str:
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


def describe_exit(
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


def stderr_tail(text: str) -> str:
    """The end of a crashed worker's stderr, with the guard's reason kept even when the
    student's own output came first."""
    refused = [line for line in text.splitlines() if line.startswith(REFUSED_MARKER)]
    tail = text[-1500:]
    if refused and refused[-1] not in tail:
        tail = f"{tail}\n{refused[-1]}"
    return tail
