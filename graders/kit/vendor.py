"""The engine code a kit carries, generated from the engine's own files.

Three kinds of module:

* WHOLE: engine modules the pre-check runs as they are (rules, rule checks, collection of the
  student's files, assertions, the pytest plugin and fixtures, the worker loop), copied with
  their ``graders`` imports pointed at the kit's private package ``_precheck``;
* sliced: the public tests and the helpers they use, cut down to what the public tests reach
  (:mod:`graders.kit.slicer`); hidden tests and whatever only they use never get in;
* recorded: a pack's oracles and generators (:data:`RECORDED`), which never get in: a stub
  answers the questions the public tests ask them from answers recorded at build time
  (``runtime/kit_stub.py``); a pack's ``[kit] shipped`` names the few reading helpers of
  theirs that public tests apply to the student's own output, which must run on it.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path

from graders import PACKAGE_DIR
from graders.kit.slicer import ENGINE, KIT, rename_imports, slice_module
from graders.rules import registry

WHOLE = {
    "graders.errors", "graders.results", "graders.declaration", "graders.starter",
    "graders.checks", "graders.extras", "graders.handin", "graders.handed_text",
    "graders.submissions", "graders.picking",
    "graders.testing", "graders.verdict", "graders.source_lines",
    "graders.notebooks",
    "graders.plugin", "graders.fixtures", "graders.pack", "graders.packs",
    "graders.specs", "graders.pack_specs", "graders.registry", "graders.observe", "graders.kept",
    "graders.sandbox.harness_kit",  # the entry-name rule reads menus with it
    # the one Worker (the protocol, its limits and message texts) and the plain launcher
    "graders.sandbox.worker", "graders.sandbox.worker_words", "graders.sandbox.plain_launcher",
}
WHOLE_DATA = ["problems.toml", "rules/messages.toml", "causes.toml", "verdict.toml"]
# Replaced by the kit's runtime (graders/kit/runtime): the pre-check's own sandbox (the engine's
# Worker with the plain launcher, never bubblewrap or the keeper) and tools.
PROVIDED = {"graders", "graders.sandbox", "graders.tools"}
# Cut from engine modules the runtime needs, by name.
ENGINE_SLICES = {
    "graders.sandbox.isolation": {"Limits", "HARNESS_ROOT", "TOOLS_ROOT", "SANDBOX_ROOT"},
    "graders.sandbox.process": {"describe_signal", "CappedReader"},
}
RUNTIME_SLICES = {  # kit module <- (engine module, names)
    "_precheck.sandbox.base": ("graders.sandbox", {"RunResult", "feed_stdin"}),
}
RECORDED = {"oracle", "generate"}


def source_of(module: str) -> Path:
    """The file of engine module ``module`` (a package's ``__init__.py``)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise LookupError(f"no engine module {module}")
    return Path(spec.origin)


def is_module(name: str) -> bool:
    """Whether ``name`` is an engine module (not a name inside one)."""
    if not name.startswith(ENGINE):
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a name inside a module, not a submodule
        return False


def kit_path(module: str) -> str:
    """Where ``graders.x.y`` lives in a kit: ``_precheck/x/y.py`` (or ``.../__init__.py``)."""
    relative = source_of(module).relative_to(PACKAGE_DIR)
    return f"{KIT}/{relative.as_posix()}"


@dataclass
class Vendored:
    """Files of a kit's ``_precheck`` package: kit path -> text."""

    files: dict[str, str] = field(default_factory=dict)
    recorded: dict[str, str] = field(default_factory=dict)  # kit module -> engine module


def _hidden(module: str) -> bool:
    return module.startswith("graders.packs.") and module.rsplit(".", 1)[-1] in RECORDED


def _attributes(text: str, alias: str) -> set[str]:
    tree = ast.parse(text)
    return {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == alias}


class Resolver:
    """Slices modules until every name the public tests reach is there."""

    def __init__(self) -> None:
        self.roots: dict[str, set[str]] = {}
        self.texts: dict[str, str] = {}

    def need(self, module: str, names: set[str]) -> None:
        if module in WHOLE or module in PROVIDED or module.startswith("graders.rules"):
            return
        known = self.roots.setdefault(module, set())
        if names <= known and module in self.texts:
            return
        known |= names
        if _hidden(module):
            return
        cut = slice_module(source_of(module).read_text(encoding="utf-8"), known,
                           title=f"Vendored from {module} by `grade kit`: only what the public "
                           "tests use.")
        self.texts[module] = cut.text
        for imported, wanted in cut.imports.items():
            if not imported.startswith(ENGINE):
                continue
            for name in wanted:
                child = f"{imported}.{name}"
                if is_module(child):
                    self.need(child, _attributes(cut.text, name) or {"*"})
                else:
                    self.need(imported, {name})
            if "*" in wanted:
                self.need(imported, _attributes(cut.text, imported.split(".")[-1]) or {"*"})


def rule_modules(rules: set[str]) -> set[str]:
    """File names of the rules package a kit needs: the registry, shared helpers and the
    modules of ``rules`` (a rule the pack does not use may need a package it does not)."""
    wanted = {registry()[name].__module__.rsplit(".", 1)[-1] for name in rules}
    return {path.stem for path in (PACKAGE_DIR / "rules").glob("*.py")
            if path.stem.startswith("_") or path.stem == "base" or path.stem in wanted}


def vendor(
    test_modules: dict[str, set[str]], rules: set[str],
    shipped: dict[str, set[str]] | None = None,
) -> Vendored:
    """The ``_precheck`` files for public tests ``{engine test module: test names}`` and the
    pack's ``rules`` (every collection problem's rule, ``syntax-error``, is always there);
    ``shipped`` (engine module -> names) are the hidden helpers' functions the kit runs."""
    resolver = Resolver()
    for module, names in test_modules.items():
        resolver.need(module, set(names))
    out = Vendored()
    for module in sorted(WHOLE):
        out.files[kit_path(module)] = rename_imports(source_of(module).read_text("utf-8"))
    stems = rule_modules(rules | {"syntax-error"})
    while True:  # and the rule modules the engine's own modules import (main_block, ...)
        for stem in sorted(stems):
            path = PACKAGE_DIR / "rules" / f"{stem}.py"
            out.files[f"{KIT}/rules/{path.name}"] = rename_imports(path.read_text("utf-8"))
        more = set(re.findall(rf"{KIT}\.rules\.(\w+)", "\n".join(out.files.values()))) - stems
        if not more:
            break
        stems |= more
    for name in WHOLE_DATA:
        out.files[f"{KIT}/{name}"] = (PACKAGE_DIR / name).read_text("utf-8")
    for module, names in ENGINE_SLICES.items():
        _slice_into(out, kit_path(module), module, names)
    for kit_module, (module, names) in RUNTIME_SLICES.items():
        _slice_into(out, kit_module.replace(".", "/") + ".py", module, names)
    for module, text in resolver.texts.items():
        out.files[kit_path(module)] = rename_imports(text)
    for module, names in resolver.roots.items():
        if _hidden(module):
            out.files[kit_path(module)] = _stub(module, names, (shipped or {}).get(module, set()))
            out.recorded[module.replace(ENGINE, KIT, 1)] = module
    return out


def _slice_into(out: Vendored, path: str, module: str, names: set[str]) -> None:
    text = slice_module(source_of(module).read_text("utf-8"), names,
                        title=f"Vendored from {module} by `grade kit`.").text
    out.files[path] = rename_imports(text)


def _stub(module: str, names: set[str], shipped: set[str]) -> str:
    kit_module = module.replace(ENGINE, KIT, 1)
    shipped = shipped & names
    head = f'"""Answers of {module}, recorded by `grade kit`: the helper itself is hidden."""\n'
    body = ""
    if shipped:
        body = slice_module(source_of(module).read_text("utf-8"), shipped).text
        body = "\n".join(body.splitlines()[1:]) + "\n"
    return (head + rename_imports(body) + "\nfrom _precheck.kit_stub import helper\n\n"
            f"__getattr__ = helper({kit_module!r}, {module!r})\n")
