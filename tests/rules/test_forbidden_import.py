"""Rule ``forbidden-import``: only the template's import line, nothing dynamic."""

from __future__ import annotations

import pydantic
import pytest
from rules_testkit import example, lines, run_altnim, run_rule

from graders.rules import get_rule

ONLY_STAR = {"allowed": ["from myAltNimClasses import *"]}


def test_plain_import_names_the_statement_and_what_is_allowed() -> None:
    [violation] = run_rule("forbidden-import", example("forbidden_import_math.py"), ONLY_STAR)
    assert violation.rule == "forbidden-import"
    assert violation.line == 3
    assert violation.message.startswith(
        "Line 3: `import math` — this assignment allows only `from myAltNimClasses import *`."
    )
    assert "Remove it" in violation.message
    assert violation.source_line == "import math"


def test_ide_added_typing_import_says_an_editor_may_have_added_it() -> None:
    [violation] = run_altnim("forbidden-import", example("forbidden_import_ide_typing.py"))
    assert violation.line == 2
    assert "`from typing import List`" in violation.message
    assert "PyCharm" in violation.message


def test_imports_nested_in_try_function_and_main_block() -> None:
    found = run_altnim("forbidden-import", example("forbidden_import_nested.py"))
    assert lines(found) == [4, 10, 15]
    assert "inside `try:`" in found[0].message
    assert "inside `def MiniMax`" in found[1].message
    assert "`import random`" in found[1].message
    assert "inside `if __name__ == '__main__':`" in found[2].message


def test_allowed_modules_may_be_imported_anywhere_in_any_form() -> None:
    options = {**ONLY_STAR, "allowed_modules": ["doctest", "numpy"]}
    found = run_rule("forbidden-import", example("forbidden_import_nested.py"), options)
    assert lines(found) == [10]  # only `import random` is left
    source = "import doctest.testing as t\nx = __import__('doctest')\n"
    assert run_rule("forbidden-import", source, options) == []


def test_allowed_modules_are_listed_in_the_message() -> None:
    options = {**ONLY_STAR, "allowed_modules": ["doctest"]}
    [violation] = run_rule("forbidden-import", "import os\n", options)
    assert "only `from myAltNimClasses import *`, imports of `doctest`" in violation.message


def test_no_imports_allowed_at_all() -> None:
    [violation] = run_rule("forbidden-import", "from myAltNimClasses import *\n")
    assert "allows no imports" in violation.message


def test_relative_imports_are_imports() -> None:
    found = run_altnim("forbidden-import", example("forbidden_import_relative.py"))
    assert lines(found) == [2, 3]
    assert "`from . import helpers`" in found[0].message
    assert "`from ..shared import tools as t`" in found[1].message


@pytest.mark.parametrize(
    "spelling",
    [
        "from myAltNimClasses import *",
        "from   myAltNimClasses   import  *",
        "from myAltNimClasses import *  # the lone import",
        "from myAltNimClasses \\\n    import *",
    ],
)
def test_allowed_statement_compared_whitespace_normalised(spelling: str) -> None:
    assert run_altnim("forbidden-import", spelling + "\n") == []


def test_allowed_statement_ignores_parentheses_but_not_names() -> None:
    options = {"allowed": ["from myAltNimClasses import State, getNext"]}
    same = "from myAltNimClasses import (\n    State,\n    getNext,\n)\n"
    assert run_rule("forbidden-import", same, options) == []
    assert run_rule("forbidden-import", "from myAltNimClasses import getNext, State\n", options)


def test_changed_required_import_names_what_it_became() -> None:
    [violation] = run_altnim("forbidden-import", example("forbidden_import_changed.py"))
    assert violation.line == 5
    assert "`from myAltNimClasses import *` was changed to" in violation.message
    assert "`from myAltNimClasses import State`" in violation.message


def test_changed_required_import_found_by_similar_spelling() -> None:
    [violation] = run_altnim("forbidden-import", "from myAltnimClasses import *\n")
    assert "changed to `from myAltnimClasses import *`" in violation.message


def test_missing_required_import_and_extra_one() -> None:
    found = run_altnim("forbidden-import", "import os\n\n\ndef f():\n    pass\n")
    assert len(found) == 2
    missing = next(v for v in found if v.line is None)
    assert "`from myAltNimClasses import *` is missing" in missing.message
    assert "`import os`" in next(v for v in found if v.line == 1).message


def test_required_import_moved_into_a_block() -> None:
    source = "try:\n    from myAltNimClasses import *\nexcept ImportError:\n    pass\n"
    [violation] = run_altnim("forbidden-import", source)
    assert violation.line == 2
    assert "moved inside `try:`" in violation.message


def test_required_import_kept_plus_a_second_import_of_the_same_module() -> None:
    source = "from myAltNimClasses import *\nfrom myAltNimClasses import State\n"
    [violation] = run_altnim("forbidden-import", source)
    assert violation.line == 2
    assert "`from myAltNimClasses import State` — this assignment allows only" in (
        violation.message
    )


def test_dynamic_imports_code_and_sys_modules() -> None:
    found = run_altnim("forbidden-import", example("forbidden_import_dynamic.py"))
    by_line = {v.line: v.message for v in found}
    assert lines(found) == [5, 6, 7, 8, 9, 10, 11, 16]
    assert "`__import__('os')` imports a module while the program runs" in by_line[5]
    assert "`importlib.import_module('math')`" in by_line[7]
    assert "`getattr(__builtins__, '__import__')`" in by_line[8]
    for line in (9, 10, 11):
        assert "runs Python code built from text" in by_line[line]
    assert "`sys.modules`" in by_line[16]


@pytest.mark.parametrize(
    "source",
    [
        "import builtins\nbuiltins.__import__('os')\n",
        "import importlib\nimportlib.reload(x)\n",
        "f = __import__\n",
        "import builtins\nbuiltins.exec('1')\n",
        "run = exec\n",
        "getattr(sys, 'modules')\n",
        "def f(eval):\n    return 1\n\n\ndef g():\n    return eval('1')\n",
    ],
)
def test_other_dynamic_spellings_are_caught(source: str) -> None:
    found = run_rule(
        "forbidden-import", source, {"allowed": ["import builtins", "import importlib"]}
    )
    assert found, source


@pytest.mark.parametrize(
    "source",
    [
        # the altNim template defines its own eval: calling it is not dynamic code
        "def eval(state, isMax):\n    return 0\n\n\ndef MiniMax(s):\n    return eval(s, True)\n",
        "def f(compile):\n    return compile(1)\n",
        "def f():\n    exec = print\n    exec('hello')\n",
        "evaluate = 3\nmodules = {}\nstate.modules\n",
    ],
)
def test_names_the_file_binds_itself_are_not_builtins(source: str) -> None:
    assert run_rule("forbidden-import", source) == []


def test_clean_solution_passes() -> None:
    assert run_altnim("forbidden-import", example("clean_altnim_solution.py")) == []


@pytest.mark.parametrize(
    "options",
    [
        {"allowed": ["x = 1"]},
        {"required": ["from myAltNimClasses import"]},
        {"alowed": ["import os"]},
    ],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(pydantic.ValidationError):
        get_rule("forbidden-import")(options)
