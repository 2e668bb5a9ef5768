"""The one resolver of a pack's declared entries (child side): ``entry("game")``.

A pack's ``assignment.toml`` declares, in ``[entries.NAME]``, what its driver asks for and the
ways to reach it in the student's work, tried in order (the parent validates the table when the
declaration loads: ``graders.pack_specs.EntrySpec``):

- ``pinned = "module.Name"``: the attribute, importing the student's module; ``written = true``
  passes over the starter's unwritten stub (kept as a last resort: it fails with its own
  message); ``base = "module.Base"`` names, when the attribute is missing, the module's own
  subclasses of the base;
- ``menu = "file.py"``, ``mapping``, ``key``: what ``mapping[key]`` names, read with ``ast``
  and imported from the module ``file`` imports it from, ``file`` never run; the dicts passed
  as argument ``position`` of calls to ``passed_to`` are menus too; ``run = true`` first
  imports ``file`` and indexes its mapping (the course's tests do), reading it only when that
  fails;
- ``home = "Name"``, ``base``: the one handed-in module (``skip`` left out) defining a written
  class ``Name``, else the one class deriving from ``base``.

``kind = "class"`` turns a found object that is not a class into a reason. An entry no way
reaches raises the student's own error met on the way, if any, else :class:`EntryNotFound`
naming every way tried and why it failed, with the handout's sentence.

Standard library only, beside ``harness_kit`` (the harness copies both, and the table as
``entries.json``, next to the driver; a driver loaded in-process from its pack folder reads
``assignment.toml`` there).
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

try:
    import harness_kit as kit  # in the harness, beside the driver
except ModuleNotFoundError:  # the engine's own copy: a driver loaded in-process, the parent
    from graders.sandbox import harness_kit as kit

TABLE_FILE = "entries.json"


class EntryNotFound(LookupError):
    """An entry the driver asks for is reached by none of its declared ways."""


def table_json(assignment: Path) -> str:
    """The ``[entries]`` table of ``assignment`` (an ``assignment.toml``; none: no entries)
    as JSON text."""
    if not assignment.is_file():
        return "{}"
    import tomllib  # noqa: PLC0415 - the grader's side only: a worker reads entries.json

    with assignment.open("rb") as handle:
        return json.dumps(tomllib.load(handle).get("entries", {}), indent=1)


class Entries:
    """A pack's declared entries, each resolved once (a driver makes one at import)."""

    def __init__(self, table: dict) -> None:
        self.table = table
        self._found: dict[str, object] = {}

    @classmethod
    def beside(cls, driver_file: str) -> Entries:
        """The entries of the driver at ``driver_file``: ``entries.json`` beside it (the
        harness), else the ``assignment.toml`` beside it (its pack folder)."""
        folder = Path(driver_file).resolve().parent
        table = folder / TABLE_FILE
        text = table.read_text("utf-8") if table.is_file() else \
            table_json(folder / "assignment.toml")
        return cls(json.loads(text))

    def __call__(self, name: str):
        """What entry ``name`` reaches by the first way that reaches it."""
        if name not in self.table:
            raise KeyError(f"the pack's driver asks for entry {name!r}, which its "
                           f"assignment.toml does not declare ([entries.{name}])")
        if name not in self._found:
            self._found[name] = self._resolve(name)
        return self._found[name]

    def by(self, name: str, way: str):
        """What the first ``way`` (``pinned``, ``menu``, ``home``) of ``name`` reaches, or
        None (a game view standing in for the menu's class needs that class alone)."""
        spec = self.table[name]
        for declared in spec["ways"]:
            if way in declared:
                return _checked(spec, *REACH[way](declared))[0]
        return None

    def _resolve(self, name: str):
        spec = self.table[name]
        tried, stub, error = [], None, None
        for way in spec["ways"]:
            kind = next(k for k in REACH if k in way)
            found, why, raised = _checked(spec, *REACH[kind](way))
            error = error or raised
            if found is not None and way.get("written") and kit.unwritten(found):
                stub = stub or found
                why = "it is the starter's unwritten stub"
            elif found is not None:
                return found
            tried.append(f"{_looked_for(kind, way)} ({why})")
        if stub is not None:
            return stub
        if error is not None:
            raise error
        handout = f": the handout says '{spec['handout']}'" if spec.get("handout") else ""
        raise EntryNotFound(f"{spec['what']} was not found: looked " + ", then ".join(tried) +
                            handout)


def _checked(spec: dict, found, why: str, error=None):
    """(found, why, error), a found object that is not a class, where a class is declared,
    turned into a reason."""
    if found is None or spec.get("kind", "any") != "class" or inspect.isclass(found):
        return found, why, error
    return None, f"it is not a class: {type(found).__name__}", error


def _looked_for(kind: str, way: dict) -> str:
    if kind == "pinned":
        module, name = way["pinned"].rsplit(".", 1)
        return f"for `{name}` in {module}.py"
    if kind == "menu":
        return f"for `{way['mapping']}[{way['key']!r}]` in {way['menu']}'s menu"
    return "in every module handed in"


def _pinned(way: dict):
    module, name = way["pinned"].rsplit(".", 1)
    found, why, error = kit.pinned(module, name)
    if found is None and error is None and way.get("base"):
        others = _subclasses(module, way["base"])
        why += f"; it has {', '.join(others)}" if others else ""
    return found, why, error


def _subclasses(module: str, base: str) -> list[str]:
    """The classes of ``module`` deriving from ``base`` (``module.Name``) defined outside
    ``base``'s own module (the framework's examples are not the student's)."""
    home, name = base.rsplit(".", 1)
    try:
        parent = getattr(kit.import_student(home), name)
    except (ImportError, AttributeError):
        return []
    return sorted(key for key, value in vars(kit.import_student(module)).items()
                  if inspect.isclass(value) and issubclass(value, parent)
                  and value.__module__ != home)


def _menu(way: dict):
    file, mapping, key = way["menu"], way["mapping"], way["key"]
    failed = None
    if way.get("run"):
        try:
            menu = getattr(kit.import_student(file[:-3]), mapping, None)
        except Exception as exc:  # noqa: BLE001 - the file fails to run: read it instead
            failed = exc
        else:
            if isinstance(menu, dict) and key in menu:
                return menu[key], "", None
    found, why = _read_menu(file, mapping, key, way)
    return found, why, None if found is not None else failed


def _read_menu(file: str, mapping: str, key: str, way: dict):
    """(what ``mapping[key]`` of ``file`` names, or None; why not), ``file`` never run."""
    tree, why = kit.read_tree(file)
    if tree is None:
        return None, why
    names = [mapping] + [menu for menu in kit.menus_passed(
        tree, way.get("passed_to", ""), way.get("position", 0)) if menu != mapping]
    for menu in names:
        entry = kit.menu_entry(tree, menu, key)
        if entry is not None:
            return kit.import_entry(tree, entry, file)
    return None, f"no entry {key!r} in its `{'`, `'.join(names)}` menu"


def _home(way: dict):
    name, base = way["home"], way.get("base", "")
    homes = kit.class_homes(kit.module_sources(skip=way.get("skip", ())), name, base)
    if len(homes) != 1:
        shown = ", ".join(f"`{cls}` in {file}" for file, cls in homes)
        return None, (f"several: {shown}" if homes else
                      f"none defines `{name}` or a subclass of `{base}`"), None
    file, cls = homes[0]
    return kit.pinned(file[:-3], cls)


REACH = {"pinned": _pinned, "menu": _menu, "home": _home}
