"""Rule ``module-global``: no module-level variables, no ``global`` statements."""

from __future__ import annotations

import pytest
from rules_testkit import example, lines, run_rule

from graders.rules.base import Violation


def names(found: list[Violation]) -> list[tuple[int | None, str]]:
    """(line, first backticked word) of each violation."""
    return [(v.line, v.message.split("`")[1]) for v in found]


def test_every_binding_form_at_module_level() -> None:
    found = run_rule("module-global", example("module_global_forms.py"))
    assert all(v.rule == "module-global" for v in found)
    assert names(found) == [
        (3, "__author__"),
        (4, "counter"),  # plain
        (5, "counter"),  # augmented
        (6, "total"),  # annotated, no value
        (7, "depth"),  # annotated with a value
        (8, "first"),  # tuple, nested tuple and starred targets
        (8, "second"),
        (8, "rest"),
        (9, "for"),  # the loop variable (message names the `for` loop first)
        (11, "with ... as handle"),
        (14, "cache"),  # inside a module-level try
        (15, "except ... as problem"),
        (18, "spare"),  # inside a module-level while
        (19, "State.MOVES = ..."),  # stores into a module-level object
        (23, "global counter"),
        (23, "global calls"),
        (29, "start"),  # inside if __name__ == "__main__"
    ]
    loop = found[8]
    assert "loop variable `index`" in loop.message
    assert "global variable" in found[1].message
    assert "`global counter` in `MiniMax`" in found[14].message


def test_names_used_only_inside_functions_imports_defs_and_classes_pass() -> None:
    source = (
        "from myAltNimClasses import *\nimport os\n\n\nclass A:\n    size = 3\n\n\n"
        "def f(x):\n    local = x\n    for i in range(3):\n        local += i\n    return local\n"
    )
    assert run_rule("module-global", source) == []


def test_walrus_at_module_level_including_comprehensions() -> None:
    found = run_rule("module-global", example("module_global_walrus.py"))
    assert names(found) == [
        (3, "limit := ..."),
        (5, "squares"),
        (5, "last := ..."),
        (6, "y := ..."),
    ]
    assert "creates the global variable `limit`" in found[0].message


def test_walrus_in_a_default_value_runs_at_module_level() -> None:
    found = run_rule("module-global", "def f(x=(seed := 4)):\n    return x\n")
    assert names(found) == [(1, "seed := ...")]


def test_lambda_and_comprehension_variables_are_not_module_bindings() -> None:
    source = "print([i for i in range(3)])\nprint(list(map(lambda v: (w := v), [1])))\n"
    assert run_rule("module-global", source) == []


def test_main_block_allowed_by_option_but_not_its_else() -> None:
    source = (
        'if __name__ == "__main__":\n    start = 1\nelse:\n    other = 2\n'
        "if '__main__' == __name__:\n    again = 3\n"
    )
    assert names(run_rule("module-global", source)) == [(2, "start"), (4, "other"), (6, "again")]
    allowed = run_rule("module-global", source, {"allow_main_block": True})
    assert names(allowed) == [(4, "other")]


def test_allowed_names() -> None:
    found = run_rule(
        "module-global", example("module_global_forms.py"), {"allowed_names": ["__author__"]}
    )
    assert 3 not in lines(found)
    assert len(found) == 16


@pytest.mark.parametrize(
    ("source", "line", "words"),
    [
        ("def f():\n    def g():\n        global deep\n", 3, "`global deep` in `g`"),
        ("class C:\n    def m(self):\n        global n\n", 3, "`global n` in `m`"),
        ("async def f():\n    global a\n", 2, "`global a` in `f`"),
        ("match p:\n    case [x, *others]:\n        pass\n", 2, "`x`"),
        ("with a as (b, c):\n    pass\n", 1, "`b`"),
        ("data = {}\ndata['k'] = 1\n", 2, "`data['k'] = ...`"),
    ],
)
def test_more_forms(source: str, line: int, words: str) -> None:
    found = run_rule("module-global", source)
    assert line in lines(found)
    assert any(words in v.message for v in found if v.line == line)


def test_clean_solution_passes() -> None:
    assert run_rule("module-global", example("clean_altnim_solution.py")) == []
