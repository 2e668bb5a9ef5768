"""Child side: python_ta on submitted files, run in the sandbox by the python_ta tool.

Usage: ``python -I driver_pyta.py CONFIG FILE...``. The first line of stdout is a JSON header
(the python_ta, pylint and astroid versions); then one JSON line per file, written as soon as
that file is done, so a run stopped by the time limit keeps the files it finished:

- ``{"file": F, "messages": [...], "count": N}``: what python_ta reported (of N messages,
  at most MAX_PER_KIND of each kind, so every kind is seen), each with its id, symbol,
  category letter, line, column and text;
- ``{"file": F, "not_checked": WHY}``: python_ta refused the file (a ``pylint:`` comment, a
  tokenize error), with the words it logged;
- ``{"file": F, "crash": WHAT}``: python_ta itself raised an exception.

Nothing here imports or runs the student's code: pylint and astroid only read it.
"""

import contextlib
import io
import json
import logging
import sys

MAX_PER_KIND = 20


def main(argv):
    config, files = argv[0], argv[1:]
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
    for name in files:
        emit(check(python_ta, config, name, log))


def emit(record):
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def check(python_ta, config, name, log):
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
    per_kind = {}
    kept = []
    for message in found:
        per_kind[message.msg_id] = per_kind.get(message.msg_id, 0) + 1
        if per_kind[message.msg_id] <= MAX_PER_KIND:
            kept.append(describe(message))
    return {"file": name, "messages": kept, "count": len(found)}


def describe(message):
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
