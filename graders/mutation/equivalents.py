"""A pack's hand-made list of equivalent mutants, and its recorded score.

``graders/packs/<id>/equivalent_mutants.toml`` names the mutants no test can catch because they
do not change what the program does, each with the reason::

    [[equivalent]]
    id = "2978a460ec"                     # as `grade selfcheck ID --mutants` prints it
    where = "my_functions.py:18"     # for the reader only (line numbers move)
    reason = "max() and min() agree when both children are equal"

    [[block]]                             # every mutant in a top-level block
    file = "game.py"
    block = "__main__"                    # a def or class name, or __main__
    reason = "the demo under `if __name__ == '__main__':`; grading imports the module"

``graders/packs/<id>/mutation.json`` holds the last recorded run (``--record``), which
``grade list`` shows.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graders.errors import DeclarationError
from graders.pack import Pack
from graders.results import write_atomic

EQUIVALENTS = "equivalent_mutants.toml"
RECORD = "mutation.json"


@dataclass
class Equivalents:
    """Mutant id -> reason, and (file, block) -> reason."""

    mutants: dict[str, str] = field(default_factory=dict)
    blocks: dict[tuple[str, str], str] = field(default_factory=dict)


def load_equivalents(pack: Pack) -> Equivalents:
    """The pack's list (empty when it has none); a malformed entry is a DeclarationError."""
    path = pack.dir / EQUIVALENTS
    if not path.is_file():
        return Equivalents()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        found = Equivalents(
            mutants={_text(e, "id", path): _text(e, "reason", path)
                     for e in data.get("equivalent", [])},
            blocks={(_text(e, "file", path), _text(e, "block", path)): _text(e, "reason", path)
                    for e in data.get("block", [])},
        )
    except (tomllib.TOMLDecodeError, TypeError, AttributeError) as exc:
        raise DeclarationError(f"{path}: {exc}") from None
    return found


def _text(entry: dict[str, Any], key: str, path: Path) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise DeclarationError(f"{path}: every entry needs a non-empty `{key}` ({entry})")
    return value.strip()


def write_record(pack: Pack, record: dict[str, Any]) -> Path:
    """Write ``mutation.json`` in the pack folder; returns its path."""
    path = pack.dir / RECORD
    write_atomic(path, json.dumps(record, indent=1) + "\n")
    return path


def read_record(pack: Pack) -> dict[str, Any] | None:
    """The last recorded run, or None (never measured, or unreadable)."""
    try:
        data = json.loads((pack.dir / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def list_label(pack: Pack) -> str:
    """``mutants 96 %`` (the recorded score) or ``mutants: not measured``, for `grade list`."""
    record = read_record(pack)
    score = record.get("score") if record else None
    if not isinstance(score, int | float):
        return "mutants: not measured"
    return f"mutants {score:.0f} %"
