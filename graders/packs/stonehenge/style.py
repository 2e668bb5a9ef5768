"""The style checks of a2_pyta.txt that the stonehenge pack grades (parent side, static).

python_ta itself is not used: installing it into the harness downgrades mypy (it pins
``mypy~=1.13``) and pygments, and pulls in pylint, astroid, black, aiohttp and requests. This
module checks the documented subset of what ``python_ta.check_all(config="a2_pyta.txt")``
reports, each with the message python_ta would give:

- ``pycodestyle``: python_ta's pep8 checks (pycodestyle, W503 ignored as python_ta does) with
  ``max-line-length = 80`` (pylint C0301);
- ``nesting``: ``max-nested-blocks = 3`` (pylint R1702: if/for/while/try/with inside a
  function; an ``elif`` is not a deeper block);
- ``io``: ``allowed-io`` (python_ta E9998): ``input``, ``print`` and ``open`` only in the
  functions the config allows;
- ``imports``: ``allowed-import-modules`` plus ``extra-imports`` and local modules
  (python_ta E9999);
- ``docstrings``: pylint C0114/C0115/C0116: the module, every class and every function whose
  name does not start with ``_`` has a docstring.

Type checks, naming, unused names and the rest of pylint are not graded.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from graders.rules.pep8 import Pep8

MAX_LINE = 80
MAX_NESTED = 3
ALLOWED_IMPORTS = frozenset({"doctest", "unittest", "hypothesis", "python_ta", "typing",
                             "__future__"})
LOCAL_MODULES = frozenset({"game", "game_state", "game_interface", "strategy", "stonehenge",
                           "subtract_square_game", "subtract_square_state"})
ALLOWED_IO = frozenset({"interactive_strategy", "StonehengeGame.__init__",
                        "GameInterface.__init__", "GameInterface.play", "choose", "main"})
IO_FUNCTIONS = frozenset({"input", "print", "open"})
BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith,
          ast.Match, ast.TryStar)

Problem = tuple[int, str]


def pycodestyle(source: str, file: str) -> list[Problem]:
    """pycodestyle's reports, as python_ta makes them (lines up to 80 characters)."""
    checker = Pep8({"ignore": ["W503"], "max_line_length": MAX_LINE})
    return [(line, f"{code} {text}") for line, _, code, text in checker.problems(source, file)]


def _functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(qualified name, node) of every function, ``Cls.m`` for methods."""
    found = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append((prefix + child.name, child))
                walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                walk(child, f"{prefix}{child.name}.")
            else:
                walk(child, prefix)

    walk(tree, "")
    return found


def _blocks(statements: list[ast.stmt], level: int) -> Iterator[tuple[int, ast.stmt]]:
    """(nesting level, block) of every block in ``statements``; an ``elif`` stays at the
    level of its ``if``."""
    for stmt in statements:
        if not isinstance(stmt, BLOCKS):
            continue  # nested defs and classes are checked as functions of their own
        yield level + 1, stmt
        for body in _bodies(stmt):
            yield from _blocks(body, level + 1)
        if isinstance(stmt, ast.If) and _is_elif_chain(stmt):
            yield from _blocks(stmt.orelse, level)


def _is_elif_chain(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.If) and len(stmt.orelse) == 1
            and isinstance(stmt.orelse[0], ast.If))


def _bodies(stmt: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(stmt, ast.If):
        return [stmt.body] if _is_elif_chain(stmt) else [stmt.body, stmt.orelse]
    if isinstance(stmt, ast.Try | ast.TryStar):
        return [stmt.body, stmt.orelse, stmt.finalbody, *[h.body for h in stmt.handlers]]
    if isinstance(stmt, ast.Match):
        return [case.body for case in stmt.cases]
    return [getattr(stmt, "body", []), getattr(stmt, "orelse", [])]


def nesting(tree: ast.Module) -> list[Problem]:
    """Functions whose blocks nest deeper than ``MAX_NESTED`` (pylint R1702)."""
    problems = []
    for name, node in _functions(tree):
        deepest = max(_blocks(node.body, 0), key=lambda found: found[0], default=None)
        if deepest is not None and deepest[0] > MAX_NESTED:
            depth, block = deepest
            problems.append((block.lineno, f"R1702 too many nested blocks in {name} "
                                           f"({depth}/{MAX_NESTED})"))
    return problems


def _is_main_guard(node: ast.stmt) -> bool:
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__")


def io_calls(tree: ast.Module) -> list[Problem]:
    """``input``/``print``/``open`` outside the allowed functions (python_ta E9998)."""
    owner: dict[int, str] = {}
    for name, node in _functions(tree):
        for inner in ast.walk(node):
            owner[id(inner)] = name  # innermost function wins: walked after its parent
    main_nodes = {id(n) for stmt in tree.body if _is_main_guard(stmt) for n in ast.walk(stmt)}
    problems: list[Problem] = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id in IO_FUNCTIONS):
            continue
        function = owner.get(id(call))
        if function in ALLOWED_IO or (function is None and id(call) in main_nodes):
            continue
        where = f"in {function}" if function else "at module level"
        problems.append((call.lineno, f"E9998 used input/output function {call.func.id} "
                                      f"{where}"))
    return sorted(problems)


def imports(tree: ast.Module) -> list[Problem]:
    """Imports of modules other than the allowed, extra and local ones (python_ta E9999)."""
    allowed = ALLOWED_IMPORTS | LOCAL_MODULES
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or "."] if node.level == 0 else ["." + (node.module or "")]
        else:
            continue
        for name in names:
            if name.split(".")[0] not in allowed:
                problems.append((node.lineno, f"E9999 you may not import {name}"))
    return sorted(problems)


def docstrings(tree: ast.Module) -> list[Problem]:
    """Missing docstrings (pylint C0114, C0115, C0116; names starting with _ exempt)."""
    problems = []
    if ast.get_docstring(tree) is None:
        problems.append((1, "C0114 missing module docstring"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and ast.get_docstring(node) is None:
            problems.append((node.lineno, f"C0115 missing docstring in class {node.name}"))
    for name, node in _functions(tree):
        if not node.name.startswith("_") and ast.get_docstring(node) is None:
            problems.append((node.lineno, f"C0116 missing docstring in function {name}"))
    return sorted(problems)


CHECKS = {"nesting": nesting, "io": io_calls, "imports": imports, "docstrings": docstrings}


def check(kind: str, source: str, file: str) -> list[Problem]:
    """The problems of one kind in ``source`` (which must parse, except for pycodestyle)."""
    if kind == "pycodestyle":
        return pycodestyle(source, file)
    return CHECKS[kind](ast.parse(source))
