"""The PNT starter kit: official files untouched, a skeleton that parses and prints correctly."""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.util
import io
import subprocess
import sys
from pathlib import Path

import pytest

from graders.packs.pnt.checks import parse_output

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "student_templates" / "pnt"
REFERENCE = ROOT / "reference_solutions" / "pnt"

# SHA-256 of the files handed out with the assignment (the spec's pnt-official/ folder).
OFFICIAL_SHA256 = {
    "output1.txt": "85001b5a4da5c8a14f3db37f0228c25ce0e304e565426201da136b0abdd60320",
    "output2.txt": "2ee51c8ee4cffd9e27359589ffdace13279db7d19e409e7114a4475e0cdeb719",
    "output3.txt": "d4440fc74ed92663b84dfb28a3691f5e25b3ca2194b40808ff51a15792a029b3",
    "testcase.txt": "a917746ed770f724dc259df871dfcd6ba83efd96901115d821e88a2cf36b627b",
}


def load(path: Path, name: str):
    """Import a pnt.py under a distinct module name."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


template = load(TEMPLATE / "pnt.py", "pnt_template")
reference = load(REFERENCE / "pnt.py", "pnt_reference")


@pytest.mark.parametrize("name", sorted(OFFICIAL_SHA256))
def test_official_files_are_byte_for_byte(name: str) -> None:
    digest = hashlib.sha256((TEMPLATE / name).read_bytes()).hexdigest()
    assert digest == OFFICIAL_SHA256[name]


def test_output1_keeps_its_quirks() -> None:
    raw = (TEMPLATE / "output1.txt").read_bytes()
    assert raw.startswith(b"Move: 1 \n") and not raw.endswith(b"\n")


@pytest.mark.parametrize("args", ["3 0 0", "10 3 4 2 6 4", "7 3 1 4 2 3"])
def test_argument_parsing_matches_reference(args: str) -> None:
    assert template.parse_arguments(args.split()) == reference.parse_arguments(args.split())


def test_printer_prints_what_the_reference_prints() -> None:
    results = reference.alpha_beta_search(7, [3, 6], 0)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        template.print_results(*results)
    parsed = parse_output(printed.getvalue())
    assert parsed.format_ok
    assert parsed.values == {
        "move": 1,
        "value": -1.0,
        "visited": 16,
        "evaluated": 8,
        "max_depth": 4,
        "branching": 1.9,
    }


@pytest.mark.parametrize("function", ["legal_moves", "evaluate", "alpha_beta_search"])
def test_unwritten_parts_fail_loudly(function: str) -> None:
    arguments = {
        "legal_moves": (7, set(), None),
        "evaluate": (7, set(), None, True),
        "alpha_beta_search": (7, [], 0),
    }[function]
    with pytest.raises(NotImplementedError, match=function):
        getattr(template, function)(*arguments)


def test_bare_template_prints_nothing_and_fails() -> None:
    result = subprocess.run(
        [sys.executable, str(TEMPLATE / "pnt.py"), "7", "3", "1", "4", "2", "3"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode != 0 and result.stdout == ""
    assert "NotImplementedError" in result.stderr


def signatures(path: Path) -> dict[str, list[str]]:
    """Top-level function names and their parameter names."""
    tree = ast.parse(path.read_text())
    return {
        node.name: [a.arg for a in node.args.args]
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }


def test_reference_keeps_the_template_functions() -> None:
    ref = signatures(REFERENCE / "pnt.py")
    for name, params in signatures(TEMPLATE / "pnt.py").items():
        assert ref.get(name) == params, name


def test_template_marks_where_to_write() -> None:
    source = (TEMPLATE / "pnt.py").read_text()
    assert source.count("# TODO") == 3
