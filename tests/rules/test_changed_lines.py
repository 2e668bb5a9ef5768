"""``changed-lines``: a starter file edited in few lines, and only in its imports and
``__main__`` block; with ``code_only``, what changed is counted and placed in code lines (no
docstrings, comments, blank lines or prompt wording)."""

from __future__ import annotations

import ast

from rules_testkit import example, run_rule

from graders.rules import get_rule
from graders.rules.base import RuleContext, Violation

FILE = "game_view.py"
IN_MENUS = {"max_changed": 11, "regions": ["imports", "main"]}


def changed(name: str, **options) -> list[Violation]:
    return run_rule("changed-lines", example(name), {**IN_MENUS, **options},
                    template=example("changed_lines_starter.template"), file=FILE)


def keys(found: list[Violation]) -> list[str]:
    """Which message each violation is: too-many, outside-added or outside-removed."""
    return ["too-many" if "differs from the starter" in v.message else
            "outside-added" if v.message.startswith("Your lines") else "outside-removed"
            for v in found]


def test_the_starter_itself_changes_nothing():
    assert changed("changed_lines_starter.template", max_changed=0, code_only=True) == []
    assert changed("changed_lines_starter.template", max_changed=0) == []


def test_comments_docstrings_blank_lines_and_prompt_wording_are_not_code():
    """The hook-up in 4 code lines (two imports, two dict entries), around reworded prompts,
    new comments, docstrings and a blank line: 4 code lines; counted line by line, many more."""
    name = "changed_lines_comments_docstrings_and_prompts.py"
    assert changed(name, max_changed=4, code_only=True) == []
    (too_many,) = changed(name, max_changed=3, code_only=True)
    assert "in 4 lines of code (blank lines, comments, docstrings" in too_many.message
    assert too_many.line == 27  # the first added import
    # Line by line, the new docstrings are code outside the menus, and every line counts.
    raw = changed(name, max_changed=11)
    assert keys(raw) == ["outside-added", "too-many"] and "in 13 lines (your" in raw[1].message


def test_code_changed_outside_the_imports_and_main_block_is_placed():
    found = changed("changed_lines_code_outside_main.py", code_only=True)
    assert keys(found) == ["outside-added"]
    assert found[0].line == 17 and "print('Thanks for playing')" in found[0].source_line
    assert "the import lines and the `if __name__ == '__main__':` block" in found[0].message
    assert changed("changed_lines_code_outside_main.py", code_only=True, regions=[]) == []


def test_a_starter_code_line_deleted_outside_is_named_with_its_text():
    (found,) = changed("changed_lines_code_deleted_outside_main.py", code_only=True)
    assert keys([found]) == ["outside-removed"]
    assert "starter's line 17, `print('Game over')`" in found.message


def test_twelve_changed_code_lines_in_the_main_block_are_one_too_many():
    name = "changed_lines_twelve_code_lines_in_main.py"
    (found,) = changed(name, code_only=True)
    assert "in 12 lines of code" in found.message and "allows at most 11" in found.message
    assert found.line == 23 and "your lines 23-24, 26, 28-36" in found.message
    assert changed(name, code_only=True, max_changed=12) == []


def test_lines_the_class_shares_count_as_starter_lines_in_code_too():
    source = example("changed_lines_twelve_code_lines_in_main.py")
    shared = frozenset({"print()", "print('Games:')"})
    rule = get_rule("changed-lines")({**IN_MENUS, "code_only": True})
    context = RuleContext(FILE, source, ast.parse(source), shared=shared,
                          template=example("changed_lines_starter.template"))
    assert list(rule.check(context)) == []


def test_line_ends_and_odd_characters_are_read_as_python_reads_them():
    """The starter saved with Windows or old-Mac line ends, with a U+2028 in its comment (pasted
    from a web page) and a form-feed page break: no line of code changed."""
    starter = example("changed_lines_starter.template")
    pasted = starter.replace("# the human moves first", "# the human\u2028moves first").replace(
        "\n\n\nclass", "\n\x0c\n\nclass")

    def changed_in(source: str, **options) -> list[Violation]:
        return run_rule("changed-lines", source, {**IN_MENUS, "max_changed": 0, **options},
                        template=starter, file=FILE)

    for source in (starter.replace("\n", "\r\n"), starter.replace("\n", "\r"), pasted):
        assert changed_in(source, code_only=True) == [], repr(source[:60])
    # Line by line, the pasted comment is the one line that differs, on its own line.
    (found,) = changed_in(pasted.replace("\x0c", ""))
    assert found.line == 13 and "in 1 line" in found.message, found.message
