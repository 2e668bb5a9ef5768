"""A pack's declared exclusions (mutants left out of the score), and its recorded score.

``graders/packs/<id>/equivalent_mutants.toml`` names the mutants left out of the score, each
with one of two claims the engine proves before it believes it (:mod:`graders.mutation.claims`)::

    [[equivalent]]                        # no correct program can tell it from the reference
    id = "2978a460ec"                     # as `grade selfcheck ID --mutants` prints it
    where = "my_functions.py:18"     # for the reader only (line numbers move)
    reason = "max() and min() agree when both children are equal"

    [[handout-silent]]                    # it answers otherwise, where the handout pins nothing
    id = "8bf0c53371"
    reason = "a row's indentation only"
    handout = "Boards are compared token by token"   # the handout's words it relies on
    differs = ["trace.board"]             # the only answers that differ: op, then keys
    ignoring = " "                        # optional: and they are equal once these go
    probe = [{ op = "trace", args = [1, true, [], ["board"]] }]   # optional: cases to show
                                          # it on, when the pack's own never reach it

    [[block]]                             # every mutant in a top-level block, one by one
    file = "game.py"
    block = "__main__"                    # a def or class name, or __main__
    kind = "equivalent"                   # or "handout-silent", with handout and differs
    except = ["129f1b5d4a"]               # optional: mutants of the block that are scored
    reason = "..."

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
EQUIVALENT, SILENT = "equivalent", "handout-silent"


@dataclass(frozen=True)
class Claim:
    """Why a mutant is left out of the score, in a form the engine can check."""

    kind: str                       # EQUIVALENT or SILENT
    reason: str
    handout: str = ""               # SILENT: the handout's words the exclusion relies on
    differs: tuple[str, ...] = ()   # SILENT: the answers that differ (``op`` or ``op.key``)
    ignoring: str = ""              # SILENT: characters whose removal makes them equal
    # SILENT: cases to show the difference on when the pack's own never reach it, each
    # {"op": driver operation, "args": [...]} or {"program": argv, "stdin": text}
    probes: tuple[dict[str, Any], ...] = ()


@dataclass
class Equivalents:
    """Mutant id -> claim, (file, block) -> claim, and the ids a block entry leaves out
    (``except``: they are scored)."""

    mutants: dict[str, Claim] = field(default_factory=dict)
    blocks: dict[tuple[str, str], Claim] = field(default_factory=dict)
    excepted: set[str] = field(default_factory=set)


def load_equivalents(pack: Pack) -> Equivalents:
    """The pack's list (empty when it has none); a malformed entry is a DeclarationError."""
    path = pack.dir / EQUIVALENTS
    if not path.is_file():
        return Equivalents()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        found = Equivalents()
        for kind in (EQUIVALENT, SILENT):
            for entry in data.get(kind, []):
                found.mutants[_text(entry, "id", path)] = _claim(entry, kind, path)
        for entry in data.get("block", []):
            key = (_text(entry, "file", path), _text(entry, "block", path))
            found.blocks[key] = _claim(entry, entry.get("kind", EQUIVALENT), path)
            found.excepted.update(str(i) for i in entry.get("except", []))
    except (tomllib.TOMLDecodeError, TypeError, AttributeError) as exc:
        raise DeclarationError(f"{path}: {exc}") from None
    return found


def _claim(entry: dict[str, Any], kind: str, path: Path) -> Claim:
    if kind == EQUIVALENT:
        return Claim(EQUIVALENT, _text(entry, "reason", path))
    if kind != SILENT:
        raise DeclarationError(f"{path}: `kind` is {EQUIVALENT!r} or {SILENT!r} ({entry})")
    differs = entry.get("differs")
    if not isinstance(differs, list) or not differs or not all(
            isinstance(d, str) and d.strip() for d in differs):
        raise DeclarationError(f"{path}: a {SILENT} entry names the answers that differ in "
                               f"`differs`, a list of `op` or `op.key` ({entry})")
    ignoring = entry.get("ignoring", "")
    if not isinstance(ignoring, str):
        raise DeclarationError(f"{path}: `ignoring` is a string of characters ({entry})")
    return Claim(SILENT, _text(entry, "reason", path), handout=_text(entry, "handout", path),
                 differs=tuple(d.strip() for d in differs), ignoring=ignoring,
                 probes=_probes(entry, path))


def _probes(entry: dict[str, Any], path: Path) -> tuple[dict[str, Any], ...]:
    probes = entry.get("probe", [])
    for probe in probes:
        op, program = probe.get("op"), probe.get("program")
        if not (isinstance(op, str) and isinstance(probe.get("args", []), list)) and not (
                isinstance(program, list) and program):
            raise DeclarationError(f"{path}: a probe is {{op = \"...\", args = [...]}} or "
                                   f"{{program = [argv...], stdin = \"...\"}} ({probe})")
    return tuple(probes)


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
    """What `grade list` says of the recorded run: ``mutants 96.4 %: caught C of N scored (E
    equivalent, S handout-silent), all`` (or ``sample of K of M``, with its 95 % interval),
    or ``mutants: not measured``."""
    record = read_record(pack)
    if not record or not isinstance(record.get("caught"), int) or not record.get("scored"):
        return "mutants: not measured"
    score = record.get("score")
    return f"mutants {score:.1f} %: {coverage(record)}" if isinstance(score, int | float) \
        else f"mutants: {coverage(record)}"


def coverage(record: dict[str, Any]) -> str:
    """``caught C of N scored (E equivalent, S handout-silent), all`` or ``..., sample of K of
    M (95 % interval L-H %)``: what a score covers, from a record."""
    text = (f"caught {record['caught']} of {record['scored']} scored "
            f"({record.get('equivalent', 0)} equivalent, {record.get('handout_silent', 0)} "
            "handout-silent), ")
    if record.get("limit") is None:
        return text + "all"
    low, high = record.get("interval") or (None, None)
    within = f" (95 % interval {low:.1f}-{high:.1f} %)" if low is not None else ""
    return text + f"sample of {record['scored']} of {record.get('scorable', '?')}{within}"
