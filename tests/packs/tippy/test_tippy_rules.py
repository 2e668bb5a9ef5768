"""The two rules the tippy pack brought to the engine: ``changed-lines`` and ``pep8``."""

from __future__ import annotations

import ast

import pytest

from graders.pack import get_pack
from graders.rules import get_rule
from graders.rules.base import RuleContext, Violation
from graders.rules.changed_lines import hunks, ranges

PACK = get_pack("tippy")
REFERENCE, TEMPLATES = PACK.reference_dir, PACK.templates_dir
SAMPLES = PACK.fixtures_dir / "submissions"
STARTER_VIEW = (TEMPLATES / "game_view.py").read_text()


def run(name: str, source: str, options=None, template: str | None = None,
        file: str = "game_view.py") -> list[Violation]:
    rule = get_rule(name)(options)
    tree = ast.parse(source) if rule.needs_tree else None
    return list(rule.check(RuleContext(file, source, tree, template=template)))


def changed(source: str, **options) -> list[Violation]:
    return run("changed-lines", source, options, template=STARTER_VIEW)


def test_the_reference_hook_up_passes():
    assert changed((REFERENCE / "game_view.py").read_text()) == []


def test_the_starter_itself_passes():
    assert changed(STARTER_VIEW) == []


def test_a_rewritten_play_method_is_too_many_lines_and_outside_the_menus():
    found = changed((SAMPLES / "game_view_rewritten" / "game_view.py").read_text())
    keys = {v.message.split(":")[0] for v in found}
    too_many = [v for v in found if "differs from the starter file" in v.message]
    assert len(too_many) == 1 and "allows at most 11" in too_many[0].message
    assert any("outside the parts" in v.message for v in found), keys
    assert all(v.line is not None and v.source_line is not None for v in found)


def test_twelve_changed_lines_in_the_menus_are_one_too_many():
    extra = "".join(f"    import module_{i}\n" for i in range(12))
    source = STARTER_VIEW.replace("    from strategy_random import StrategyRandom\n",
                                  "    from strategy_random import StrategyRandom\n" + extra)
    assert [v.message.count("12 lines") for v in changed(source)] == [1]
    assert changed(source, max_changed=12) == []


def test_one_changed_line_outside_the_menus_is_reported_with_its_text():
    source = STARTER_VIEW.replace("print('We tied...')", "print('Draw')")
    (violation,) = changed(source)
    assert violation.line == source.splitlines().index("            print('Draw')") + 1
    assert "outside the parts" in violation.message and "import lines" in violation.message


def in_code(source: str, **options) -> list[Violation]:
    """changed-lines as the pack declares it: code lines, in the imports and __main__ only."""
    return changed(source, code_only=True, **options)


def test_view_code_lines_leave_out_docstrings_comments_blank_lines_and_prompts():
    source = ('"""My game view."""\n\n' + STARTER_VIEW).replace(
        "    def play(self):", "    # the loop\n\n    def play(self):").replace(
        "input('s to play Subtract Square, ')", "input('s: subtract square, t: tippy '\n"
        "                  'please type one: ')")
    assert in_code(source, max_changed=0) == []
    assert changed(source, max_changed=0)  # counted line by line, they are changes


def test_view_code_lines_count_code_and_place_it():
    reference = (REFERENCE / "game_view.py").read_text()
    assert in_code(reference, max_changed=4) == []
    (too_many,) = in_code(reference, max_changed=3)
    assert "in 4 lines of code (blank lines, comments" in too_many.message
    source = STARTER_VIEW.replace("print('We tied...')", "print('Draw')  # shorter")
    (outside,) = in_code(source)
    assert outside.line == source.splitlines().index("            print('Draw')  # shorter") + 1
    rewritten = in_code((SAMPLES / "game_view_rewritten" / "game_view.py").read_text())
    assert {v.message.split(" ")[0] for v in rewritten} == {"Your", "game_view.py"}


def test_a_deleted_line_outside_the_menus_is_reported():
    source = STARTER_VIEW.replace("        print()\n", "", 1)
    (violation,) = changed(source)
    assert "`print()`" in violation.message and "was changed or deleted" in violation.message


def test_comments_and_blank_lines_may_change_anywhere_but_count():
    source = STARTER_VIEW.replace("    def play(self):", "    # my note\n\n    def play(self):")
    assert changed(source) == []
    assert len(changed(source, max_changed=0)) == 1
    assert len(changed(source, max_changed=1, count_blank=True)) == 1


def test_no_regions_means_changes_may_be_anywhere():
    source = STARTER_VIEW.replace("print('We tied...')", "print('Draw')")
    assert changed(source, regions=[]) == []


def test_hunks_and_ranges():
    assert [(h.t_start, h.t_end, h.s_start, h.s_end) for h in hunks(["a", "b "], ["a", "c"])] == [
        (1, 2, 1, 2)]
    assert hunks(["a  "], ["a"]) == []
    assert ranges([9, 3, 4, 5]) == "3-5, 9"


def pep8(source: str, **options) -> list[Violation]:
    return run("pep8", source, options, file="x.py")


def test_pep8_reports_each_problem_with_its_code():
    found = pep8("x=1\nimport os\n")
    assert [(v.line, v.message.split(": ")[1][:4]) for v in found] == [(1, "E225"), (2, "E402")]
    assert found[0].message.startswith("Line 1, column 2: E225")


def test_pep8_ignores_w2_and_w3_as_the_handout_did():
    source = "def f():  \n    return 1\n\n"
    assert pep8(source) == []
    assert {v.message.split(": ")[1][:4] for v in pep8(source, ignore=["E"])} == {
        "W291", "W391"}


def test_pep8_line_length_and_report_limit():
    assert pep8("x = '" + "a" * 80 + "'\n", max_line_length=100) == []
    found = pep8("x=1\n" * 8, max_reports=3)
    assert len(found) == 4 and "5 more" in found[-1].message


def test_pep8_missing_final_newline_and_untokenizable_text():
    assert pep8("x = 1") == []  # W292 is a W2 warning
    assert [v.message.split(": ")[1][:4] for v in pep8("x = 1", ignore=["E"])] == ["W292"]
    # text Python cannot read: checked above the break only (tests/rules/test_pep8.py)
    assert pep8("x = (\n") == [] and [v.kind for v in pep8("y=1\nx = (\n")] == ["E225"]


@pytest.mark.parametrize("name", ["tippy_game_state.py", "tippy_move.py",
                                  "strategy_minimax.py", "game_view.py"])
def test_reference_and_correct_sample_are_pep8_clean(name):
    options = {"ignore": ["W2", "W3", "W503", "W504"]}
    assert pep8((REFERENCE / name).read_text(), **options) == []
    assert pep8((SAMPLES / "correct" / name).read_text(), **options) == []
    assert len(pep8((SAMPLES / "pep8_violations" / "tippy_game_state.py").read_text(),
                    **options)) == 6
