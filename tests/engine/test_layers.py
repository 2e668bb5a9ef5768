"""The engine's import graph reads one way, no view reaches back to the batch, and no engine
file names a pack."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
import pytest

from graders import PACKAGE_DIR
from graders.pack import PACKS_DIR, discover_packs
from graders.registry import Registry

ENGINE = sorted(p for p in PACKAGE_DIR.rglob("*.py") if PACKS_DIR not in p.parents)
VIEWS = ("graders.console", "graders.report", "graders.export")
ABOVE_THE_VIEWS = ("graders.batch", "graders.commands", "graders.cli", "graders.parallel",
                   "graders.cluster", "graders.pipeline", "graders.stages")
ROUTES = {"graders.parallel", "graders.cluster"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The engine modules ``path`` imports, anywhere in the file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        else:
            continue
        found |= {name for name in names if name in known}
    return found


GRAPH = {module_name(p): p for p in ENGINE}
EDGES = {name: imports_of(path, set(GRAPH)) - {name} for name, path in GRAPH.items()}


def circles() -> list[list[str]]:
    """Each import circle once (Tarjan's strongly connected components of two or more)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for child in EDGES[node]:
            if child not in index:
                visit(child)
                low[node] = min(low[node], low[child])
            elif child in stack:
                low[node] = min(low[node], index[child])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(EDGES):
        if node not in index:
            visit(node)
    return found


def within_one_package(circle: list[str]) -> bool:
    """A package and its own submodules (``__init__`` re-exporting them, they importing its
    names): Python settles such a circle by import order, and it never crosses a layer."""
    head = circle[0]
    return all(name == head or name.startswith(f"{head}.") for name in circle)


def test_the_engine_has_no_import_circle():
    assert [circle for circle in circles() if not within_one_package(circle)] == []


@pytest.mark.parametrize("view", [m for m in GRAPH if m.startswith(VIEWS)])
def test_no_view_imports_the_batch_a_route_or_a_command(view: str):
    assert not [m for m in EDGES[view] if m.startswith(ABOVE_THE_VIEWS)]


def test_the_stages_never_climb_back_to_the_batch_or_a_route():
    below = {"graders.pipeline", "graders.stages", "graders.outcomes", "graders.cluster_access"}
    assert not [(m, up) for m in below for up in EDGES[m] if up in {"graders.batch", *ROUTES}]


def test_the_batch_hands_a_route_down_to_the_pipeline():
    """The batch chooses the route and hands it to the pipeline, which knows it only by the
    protocol it declares (the routes import that, never the batch)."""
    assert EDGES["graders.batch"] >= {"graders.pipeline", *ROUTES}
    assert not EDGES["graders.pipeline"] & ROUTES
    assert not [(m, up) for m in ROUTES for up in EDGES[m] if up == "graders.batch"]


def test_no_engine_file_names_a_pack():
    ids = sorted(discover_packs())
    named = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b", re.IGNORECASE)
    found = [(path.relative_to(PACKAGE_DIR).as_posix(), match.group())
             for path in ENGINE for match in named.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


def test_a_registry_finds_its_modules_and_refuses_a_name_twice():
    commands: Registry[click.Command] = Registry("graders.commands", "command",
                                                 lambda c: c.name or "")
    assert commands.all() == {}  # modules already imported register with their own registry
    first, second = click.Command("same"), click.Command("same")
    assert commands.register(first) is first and commands.register(first) is first
    with pytest.raises(ValueError, match="two commands are named 'same'"):
        commands.register(second)
    with pytest.raises(KeyError, match="unknown command 'other'; known commands: same"):
        commands.get("other")
