"""Rule ``entry-name``: an entry point's target is named as the handout pins it."""

from __future__ import annotations

from rules_testkit import example, run_rule

GAME = {"mapping": "playable_games", "key": "h", "expected": ["StonehengeGame"]}


def test_a_renamed_class_is_reported_at_the_mapping():
    [violation] = run_rule("entry-name", example("entry_name_renamed.py"), GAME,
                           file="game_interface.py")
    assert violation.line == 5
    assert "`StoneHenge`" in violation.message and "`StonehengeGame`" in violation.message
    assert "graded through" in violation.message


def test_an_alias_does_not_hide_the_real_name():
    [violation] = run_rule("entry-name", example("entry_name_aliased.py"), GAME)
    assert "`StoneHenge`" in violation.message


def test_a_module_attribute_counts_by_its_attribute_name():
    options = {"mapping": "usable_strategies", "key": "mr", "expected": ["minimax"]}
    assert run_rule("entry-name", example("entry_name_aliased.py"), options) == []
    options["expected"] = ["recursive_minimax_strategy"]
    [violation] = run_rule("entry-name", example("entry_name_aliased.py"), options)
    assert "`minimax`" in violation.message


def test_a_missing_entry_is_reported():
    [violation] = run_rule("entry-name", example("entry_name_missing.py"), GAME)
    assert violation.line is None and "playable_games['h']" in violation.message
    # its own advice: to add the entry (the rule's is to rename a class the entry names)
    assert violation.fix.startswith("Add the entry to the menu")
    [renamed] = run_rule("entry-name", example("entry_name_renamed.py"), GAME)
    assert renamed.fix.startswith("Name the class or function as the handout does")


def test_the_handout_name_passes():
    source = "from stonehenge import StonehengeGame\nplayable_games = {'h': StonehengeGame}\n"
    assert run_rule("entry-name", source, GAME) == []


def test_menus_in_the_main_block_are_read():
    options = {"mapping": "game_state", "key": "t", "expected": ["TippyGameState"]}
    [violation] = run_rule("entry-name", example("entry_name_main_block.py"), options,
                           file="game_view.py")
    assert violation.line == 15 and "`TippyState`" in violation.message


def test_a_subscript_assignment_is_an_entry():
    options = {"mapping": "strategy", "key": "m", "expected": ["StrategyMinimax"]}
    assert run_rule("entry-name", example("entry_name_main_block.py"), options) == []
    options["key"] = "x"
    [violation] = run_rule("entry-name", example("entry_name_main_block.py"), options)
    assert violation.line is None
