"""The batch's log: ``grade.log`` in the report folder, one line per stage per student.

As nbgrader and otter do, the engine logs through :mod:`logging`, under the ``graders`` logger;
:func:`batch_log` sends it to ``<out>/grade.log`` for the length of one batch, at INFO (each
stage for each student: intake, prepare, rules, session, mark, write) or, under ``grade -v``,
at DEBUG (each failed test, each share's session). The parent writes the log from what every
route returns, so a pool or a cluster logs the same stages as this process.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOG_NAME = "grade.log"
FORMAT = "%(asctime)s %(levelname)-7s %(message)s"
engine_log = logging.getLogger("graders")
# C0 and C1 controls, DEL and the bidi controls: a student's name must not move a cursor or
# reorder a line of the log, whoever reads it.
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def safe_text(text: str) -> str:
    """``text`` as one printable line of UTF-8: lone surrogates (names read from bytes that
    were not UTF-8) and control characters shown escaped."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


class SafeRecords(logging.Filter):
    """Makes each record's message :func:`safe_text` before any handler sees it: a log line
    names students, and a name can hold anything the file system can (a handler that cannot
    encode it would drop the line, and pytest-xdist would stop the whole test run)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = safe_text(record.getMessage()), None
        return True


@contextmanager
def batch_log(out_dir: Path | None, *, verbose: bool = False) -> Iterator[Path | None]:
    """Log the engine to ``out_dir/grade.log`` (a new file for each run) inside the block;
    without ``out_dir`` (the pre-check), nothing is written. Yields the log's path."""
    if out_dir is None:
        yield None
        return
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / LOG_NAME
    handler = logging.FileHandler(path, mode="w", encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT, datefmt="%Y-%m-%dT%H:%M:%S"))
    level = logging.DEBUG if verbose else logging.INFO
    handler.setLevel(level)
    before = engine_log.level
    engine_log.addHandler(handler)
    engine_log.setLevel(min(level, before) if before else level)
    try:
        yield path
    finally:
        engine_log.removeHandler(handler)
        engine_log.setLevel(before)
        handler.close()
