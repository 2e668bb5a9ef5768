"""Child side: python_ta on submitted files, run in the sandbox by a pack's python_ta tool.

Run by the tool environment's interpreter (stdlib and python_ta only, never ``graders``); the
parent side is :mod:`graders.style.python_ta`. Usage: ``python -I pyta_runner.py CONFIG
FILE...``. The first line of stdout is a JSON header (the python_ta, pylint and astroid
versions); then one JSON line per file, written as soon as that file is done, so a run stopped
by the time limit keeps the files it finished:

- ``{"file": F, "messages": [...], "count": N}``: what python_ta reported (of N messages,
  at most MAX_PER_KIND of each kind, so every kind is seen), each with its id, symbol,
  category letter, line, column and text;
- ``{"file": F, "not_checked": WHY}``: python_ta refused the file (a ``pylint:`` comment, a
  tokenize error), with the words it logged;
- ``{"file": F, "crash": WHAT}``: python_ta itself raised an exception.

Nothing here imports or runs the student's code: pylint and astroid only read it.

``python -I pyta_runner.py --chunk CONFIG JSON`` (JSON: ``[[FOLDER, [FILE, ...]], ...]``)
checks several students in one run (python_ta's start-up and astroid's inference of the
standard library are paid once): each student's files sit in a folder of their own, checked
from inside it exactly as a run of their own would, and every line carries ``"folder"``.
Between students astroid forgets every module read from a student folder and every module a
student file could shadow, so no import resolves to another student's file.

python_ta's type check starts ``python -m mypy FILE`` per file, and mypy keeps its cache in
the working folder. The runner names one cache for the whole run, in the folder it starts in
(unless ``$MYPY_CACHE_DIR`` names one: the pre-check keeps its own beside its kept answers):
the standard library's stubs are analysed once per run, not once per student. A module mypy
finds there under another path is used only when its text hashes the same, so one student's
answer never stands in for another's file.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys
from typing import Any

MAX_PER_KIND = 20
MYPY_CACHE = ".mypy_cache"


def main(argv: list[str]) -> None:
    """Check the files ``argv`` names (see the module docstring), one JSON line each."""
    chunk = argv[:1] == ["--chunk"]
    os.environ.setdefault("MYPY_CACHE_DIR", os.path.join(os.getcwd(), MYPY_CACHE))
    config, rest = (argv[1], argv[2:]) if chunk else (argv[0], argv[1:])
    log = io.StringIO()
    # python_ta logs why it refuses a file; with a root handler in place its basicConfig()
    # keeps this one, so every file's words land here.
    logging.basicConfig(stream=log, format="%(message)s", level=logging.INFO)
    import astroid
    import pylint
    import python_ta

    versions = {
        "python_ta": python_ta.__version__,
        "pylint": pylint.__version__,
        "astroid": astroid.__version__,
    }
    emit({"versions": versions})
    if not chunk:
        for name in rest:
            emit(check(python_ta, config, name, log))
        return
    home = os.getcwd()
    for folder, names in json.loads(rest[0]):
        os.chdir(os.path.join(home, folder))
        forget_student_modules(astroid, home)
        for name in names:
            emit(dict(check(python_ta, config, name, log), folder=folder))
        os.chdir(home)


def forget_student_modules(astroid: Any, home: str) -> None:
    """Drop from astroid's caches what a student folder gave it, and any module the files
    of the current folder could shadow (a student's own ``random.py``)."""
    here = {entry[:-3] if entry.endswith(".py") else entry for entry in os.listdir(".")}
    manager = astroid.MANAGER
    for name, module in list(manager.astroid_cache.items()):
        path = getattr(module, "file", None) or ""
        if path.startswith(home + os.sep) or name.split(".")[0] in here:
            del manager.astroid_cache[name]
    manager._mod_file_cache.clear()


def emit(record: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def check(python_ta: Any, config: str, name: str, log: io.StringIO) -> dict[str, Any]:
    """python_ta's report on file ``name``, as one JSON-able record."""
    chatter = io.StringIO()
    start = log.tell()
    try:
        with contextlib.redirect_stdout(chatter), contextlib.redirect_stderr(chatter):
            reporter = python_ta.check_all([name], config=config, output=io.StringIO())
    except Exception as exc:  # python_ta's own failure: reported, never hidden
        return {"file": name, "crash": f"{type(exc).__name__}: {exc}"[:2000]}
    checked = [key for key in reporter.messages if key.endswith(name)]
    if not checked:
        log.seek(start)
        said = [line for line in log.read().splitlines() if line.strip()]
        return {"file": name, "not_checked": " ".join(said[-3:])[:2000]}
    found = [message for key in checked for message in reporter.messages[key]]
    per_kind: dict[str, int] = {}
    kept = []
    for message in found:
        per_kind[message.msg_id] = per_kind.get(message.msg_id, 0) + 1
        if per_kind[message.msg_id] <= MAX_PER_KIND:
            kept.append(describe(message))
    return {"file": name, "messages": kept, "count": len(found)}


def describe(message: Any) -> dict[str, Any]:
    return {
        "id": message.msg_id,
        "symbol": message.symbol,
        "category": message.C,
        "line": message.line,
        "column": message.column,
        "text": message.msg[:300],
    }


if __name__ == "__main__":
    main(sys.argv[1:])
