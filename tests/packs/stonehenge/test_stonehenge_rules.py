"""The rules the stonehenge pack adds: ``no-recursion`` and ``main-block``."""

from __future__ import annotations

import ast
import textwrap

import pytest

from graders.pack import get_pack
from graders.rules import get_rule
from graders.rules.base import RuleContext

PACK = get_pack("stonehenge")
REFERENCE, TEMPLATES = PACK.reference_dir, PACK.templates_dir
INTERFACE = (REFERENCE / "game_interface.py").read_text()
STRATEGY = (REFERENCE / "strategy.py").read_text()
MI = {"interface_file": "game_interface.py", "interface_keys": ["mi"]}


def run(name, source, options, file="strategy.py", submitted=None):
    source = textwrap.dedent(source)
    files = {"game_interface.py": INTERFACE, file: source, **(submitted or {})}
    ctx = RuleContext(file, source, ast.parse(source), submitted=files)
    return list(get_rule(name)(options).check(ctx))


def recursive(source, options=None, **kwargs):
    return [(v.line, v.message) for v in run("no-recursion", source, options or MI, **kwargs)]


def test_reference_strategy_passes():
    assert recursive(STRATEGY) == []
    assert recursive(STRATEGY, {"functions": ["iterative_minimax_strategy"]}) == []


def test_reference_recursive_strategy_is_recursive():
    [(line, message)] = recursive(STRATEGY, {"functions": ["recursive_minimax_strategy"]})
    assert "`minimax_score` is recursive (minimax_score -> minimax_score)" in message
    assert STRATEGY.splitlines()[line - 1].startswith("def minimax_score")


def test_iterative_strategy_calling_a_recursive_helper():
    source = STRATEGY.replace(
        "    root = MinimaxNode(game.current_state)",
        "    if game.is_over(game.current_state):\n"
        "        return minimax_score(game, game.current_state)\n"
        "    root = MinimaxNode(game.current_state)")
    [(_, message)] = recursive(source)
    assert "usable_strategies['mi']" in message and "`minimax_score`" in message


METHOD_RECURSION = """
class Node:
    def __init__(self, state):
        self.state = state
        self.children = []

    def copy(self):
        return Node(self.children.copy())

    def score(self):
        return max(-child.score() for child in self.children)


def iterative_minimax_strategy(game):
    return Node(game.current_state).score()
"""


def test_method_recursion_on_another_object():
    [(line, message)] = recursive(METHOD_RECURSION)
    assert line == 10 and "Node.score -> Node.score" in message


def test_builtin_method_names_are_not_taken_for_methods():
    source = METHOD_RECURSION.replace("Node(game.current_state).score()",
                                      "Node(game.current_state).copy()")
    assert recursive(source) == []


@pytest.mark.parametrize("source", [
    """
    def a(game, n):
        return b(game, n - 1)

    def b(game, n):
        return a(game, n) if n else 0

    def iterative_minimax_strategy(game):
        return a(game, 3)
    """,
    """
    def iterative_minimax_strategy(game):
        def walk(state):
            return [walk(state.make_move(m)) for m in state.get_possible_moves()]
        return walk(game.current_state)
    """,
    """
    def score(state):
        return max(map(score, []), default=0)

    def iterative_minimax_strategy(game):
        return sorted(game.current_state.get_possible_moves(), key=score)[0]
    """,
])
def test_mutual_nested_and_referenced_recursion(source):
    assert len(recursive(source)) == 1


def test_interface_alias_is_followed():
    interface = INTERFACE.replace(
        "iterative_minimax_strategy)",
        "my_loop as iterative_minimax_strategy)")
    source = "def my_loop(game):\n    return my_loop(game)\n"
    found = recursive(source, submitted={"game_interface.py": interface})
    assert len(found) == 1 and "`my_loop` (usable_strategies['mi'])" in found[0][1]


def test_missing_or_broken_interface_finds_nothing_to_check():
    source = "def iterative_minimax_strategy(game):\n    return iterative_minimax_strategy(game)\n"
    assert recursive(source, submitted={"game_interface.py": "def broken(:\n"}) == []
    assert len(recursive(source, {"functions": ["iterative_minimax_strategy"]})) == 1


PYTA = {"call": "check_all", "keywords": {"config": "a2_pyta.txt"}}


def main_block(source):
    return [(v.line, v.message) for v in run("main-block", source, PYTA, file="x.py")]


@pytest.mark.parametrize("folder", [REFERENCE, TEMPLATES])
def test_every_starter_and_reference_file_has_the_block(folder):
    """Except game_interface.py: its main block is the starter's menu (spec), and the pack's
    main-block rule does not apply to it."""
    for path in folder.glob("*.py"):
        if "unittest" not in path.name and path.name not in ("precheck.py",
                                                             "game_interface.py"):
            assert main_block(path.read_text()) == [], path.name
    assert main_block((folder / "game_interface.py").read_text()) != []


@pytest.mark.parametrize(("source", "needle"), [
    ("x = 1\n", "does not end with the required block"),
    ("if __name__ == '__main__':\n    import python_ta\n    python_ta.check_all("
     "config='a2_pyta.txt')\nprint(1)\n", "code follows it at line 4"),
    ("if '__main__' == __name__:\n    main()\n", "does not call `check_all`"),
    ("if __name__ == '__main__':\n    check_all()\n", "with config='a2_pyta.txt'"),
])
def test_main_block_problems(source, needle):
    [(_, message)] = main_block(source)
    assert needle in message
