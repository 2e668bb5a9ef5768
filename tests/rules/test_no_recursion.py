"""``no-recursion`` sees recursion through function values: parameters, lambdas, partials."""

from __future__ import annotations

from rules_testkit import example, run_rule

OPTIONS = {"functions": ["iterative_minimax_strategy"]}


def cycles(name: str) -> list[str]:
    violations = run_rule("no-recursion", example(name), OPTIONS, file="strategy.py")
    return [v.message for v in violations]


def test_a_function_passed_to_itself_and_called_is_recursion():
    [message] = cycles("no_recursion_parameter.py")
    assert "`_value` is recursive (_value -> _value)" in message


def test_recursion_inside_a_lambda_or_a_partial_handed_on_is_found():
    found = cycles("no_recursion_lambda_partial.py")
    assert len(found) == 2, found
    assert any("`_lambda_value` is recursive" in message for message in found)
    assert any("`_score` is recursive" in message for message in found)


def test_function_values_without_recursion_are_not_reported():
    assert cycles("no_recursion_callbacks_clean.py") == []


def test_functions_made_from_text_are_reported():
    """``exec``/``compile`` of a string hide recursion from the call graph: each such call is
    a violation of its own."""
    found = cycles("no_recursion_exec_string.py")
    assert len(found) == 3, found
    assert all("builds code from text" in message for message in found)
    assert any("`builtins.exec(...)`" in message for message in found)
    assert any("`compile(...)`" in message for message in found)


def test_a_recursive_helper_the_iterative_solution_calls_names_the_path_and_the_fix():
    """The helper may stay recursive for the recursive strategy: the advice is to stop
    calling it, not to rewrite it."""
    [message] = cycles("no_recursion_shared_helper.py")
    assert "`_score` is recursive (_score -> _score)" in message
    assert "calls it (iterative_minimax_strategy -> _best -> _score)" in message
    assert "Make `iterative_minimax_strategy` call no recursive function" in message
