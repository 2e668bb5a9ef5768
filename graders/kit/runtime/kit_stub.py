# mypy: ignore-errors
"""Answers of the instructor's hidden helpers (oracles, generators), recorded by `grade kit`.

The public tests ask these helpers for expected values on the handout's own positions; the
helpers themselves stay with the instructor. Each answer was recorded while `grade kit` ran
these same public tests on the reference solution and on the course's sample mistakes, and
is looked up here by the exact arguments. A question never recorded cannot be answered here:
that check is reported as not checked (the instructor's run checks it), never as a pass.
"""

from __future__ import annotations

import atexit
import dataclasses
import importlib
import json
import os
from pathlib import Path
from typing import Any

from _precheck.errors import GraderError

TABLE = Path(__file__).with_name("recorded.json")
RECORD = os.environ.get("PRECHECK_RECORD")  # where `grade kit` collects answers while recording
_table: dict[str, Any] | None = None


class NotRecorded(GraderError):
    """A question the instructor's helpers were never asked while the kit was built."""


class Handle:
    """An answer that was an object (a position, say): its fields, read-only."""

    def __init__(self, encoded: dict[str, Any]) -> None:
        object.__setattr__(self, "_encoded", encoded)

    def __getattr__(self, name: str) -> Any:
        fields = self._encoded["O"]["fields"]
        if name in fields:
            return decode(fields[name])
        raise AttributeError(name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Handle) and key_of(self) == key_of(other)

    def __hash__(self) -> int:
        return hash(key_of(self))

    def __repr__(self) -> str:
        return f"{self._encoded['O']['type']}({self._encoded['O']['fields']})"


def encode(value: Any) -> Any:
    """Plain JSON for ``value``, telling tuples, sets and objects apart."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return {"f": repr(value)}
    if isinstance(value, Handle):
        return value._encoded
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return {"T": [encode(v) for v in value]}
    if isinstance(value, set | frozenset):
        return {"S": sorted((encode(v) for v in value), key=_sort_key)}
    if isinstance(value, dict):
        return {"P": [[encode(k), encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        for name, member in vars(type(value)).items():
            if isinstance(member, property):
                fields[name] = encode(getattr(value, name))
        return {"O": {"type": type(value).__name__, "fields": fields}}
    raise TypeError(f"cannot record a {type(value).__name__}")


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "f" in value:
        return float(value["f"])
    if "T" in value:
        return tuple(decode(v) for v in value["T"])
    if "S" in value:
        return {decode(v) for v in value["S"]}
    if "P" in value:
        return {decode(k): decode(v) for k, v in value["P"]}
    return Handle(value)


def _sort_key(encoded: Any) -> str:
    return json.dumps(encoded, sort_keys=True)


def key_of(value: Any) -> str:
    return json.dumps(encode(value), sort_keys=True)


def _load() -> dict[str, Any]:
    global _table
    if _table is None:
        _table = json.loads(TABLE.read_text(encoding="utf-8")) if TABLE.is_file() else {}
    return _table


def _save() -> None:
    if RECORD and _table is not None:
        Path(RECORD).write_text(json.dumps(_table, sort_keys=True), encoding="utf-8")


if RECORD:
    atexit.register(_save)


def attribute(module: str, real: str, name: str) -> Any:
    """Module ``__getattr__`` of a recorded helper: ``module`` here, ``real`` in the engine."""
    entry = _load().setdefault(module, {"constants": {}, "calls": {}})
    if name in entry["constants"]:
        return decode(entry["constants"][name])
    if RECORD:
        value = getattr(importlib.import_module(real), name)
        if not callable(value):
            entry["constants"][name] = encode(value)
            return decode(entry["constants"][name])
    elif name.startswith("__"):
        raise AttributeError(name)

    def recorded(*args: Any, **kwargs: Any) -> Any:
        key = key_of([name, list(args), kwargs])
        if key in entry["calls"]:
            return decode(entry["calls"][key])
        if not RECORD:
            raise NotRecorded(
                f"the pre-check has no recorded answer for this case ({name}); the "
                "instructor's run checks it")
        real_args = [_real(a) for a in args]
        result = getattr(importlib.import_module(real), name)(*real_args, **kwargs)
        entry["calls"][key] = encode(result)
        return decode(entry["calls"][key])

    recorded.__name__ = name
    return recorded


def _real(value: Any) -> Any:
    """While recording: a recorded object handed back to the real helper, rebuilt."""
    if isinstance(value, Handle):
        return _rebuild(value._encoded)
    if isinstance(value, list):
        return [_real(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_real(v) for v in value)
    return value


def _rebuild(encoded: dict[str, Any]) -> Any:
    info = encoded["O"]
    for module in list(_REAL_MODULES):
        cls = getattr(importlib.import_module(module), info["type"], None)
        if cls is not None:
            names = {f.name for f in dataclasses.fields(cls)}
            return cls(**{k: _real(decode(v)) for k, v in info["fields"].items() if k in names})
    raise TypeError(f"cannot rebuild a {info['type']}")


_REAL_MODULES: set[str] = set()


def helper(module: str, real: str):
    """The ``__getattr__`` of the recorded module ``module`` (``real`` in the engine)."""
    _REAL_MODULES.add(real)
    return lambda name: attribute(module, real, name)
