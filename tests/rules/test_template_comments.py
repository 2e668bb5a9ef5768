"""Rule ``template-comments``: each template function's comment block is kept unchanged."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_testkit import example, lines, run_altnim, run_rule, template

from graders.errors import GraderError

CLEAN = example("clean_altnim_solution.py")
TEMPLATE = template()
HYPOTHESIS = settings(max_examples=80, deadline=None, derandomize=True, database=None)


def test_clean_solution_and_bare_template_pass() -> None:
    assert run_altnim("template-comments", CLEAN) == []
    assert run_altnim("template-comments", TEMPLATE) == []


def test_edited_blocks_are_reported_with_the_first_differing_line() -> None:
    found = run_altnim("template-comments", example("template_comments_edited.py"))
    assert all(v.rule == "template-comments" for v in found)
    assert lines(found) == [15, 37, 61, None]
    changed, deleted, below, module = found
    assert "comment block above `getRemovals` differs from the template" in changed.message
    # lines are shown whitespace-normalised, as they are compared
    assert "the template has `# player to move may make in state, in the order given by the`" in (
        changed.message
    )
    assert "your file has `# player to move may make in state, in any order.`" in changed.message
    assert "comment block above `isLeaf` is missing" in deleted.message
    assert "at the top of `MiniMax` differ" in below.message
    assert "`# Children are visited in the order getRemovals gives them.`" in below.message
    assert "`# End of myAltNimFunctions.` (template line 58)" in module.message


def test_module_comments_only_checked_with_the_option() -> None:
    source = example("template_comments_edited.py")
    found = run_altnim("template-comments", source, check_module_comments=False)
    assert lines(found) == [15, 37, 61]


def test_a_removed_line_shows_no_line_found() -> None:
    source = CLEAN.replace("#   True when at most one matchstick is left in state.\n", "")
    [violation] = run_altnim("template-comments", source)
    assert "the template has `# True when at most one matchstick is left in state.`" in (
        violation.message
    )
    assert "your file has `(no line)`" in violation.message


def test_an_inserted_line_inside_the_block_counts() -> None:
    source = CLEAN.replace("# isLeaf(state)\n", "# isLeaf(state)\n# my note\n")
    [violation] = run_altnim("template-comments", source)
    assert "your file has `# my note`" in violation.message
    assert violation.line == source.splitlines().index("# my note") + 1


def test_extra_comments_before_the_block_or_after_the_lines_below_are_fine() -> None:
    source = CLEAN.replace("# isLeaf(state)\n", "# isLeaf(state)\n", 1)
    source = source.replace(
        "# ------------------------------------------------------------\n# isLeaf(state)",
        "# my own note about the next function\n\n"
        "# ------------------------------------------------------------\n# isLeaf(state)",
    )
    source = source.replace(
        "    return [-2, -4] if odd else [-1, -3]\n",
        "    return [-2, -4] if odd else [-1, -3]\n    # trailing note in the body\n",
    )
    assert run_altnim("template-comments", source) == []


@pytest.mark.parametrize("gap", ["", "\n"])
def test_a_note_of_ones_own_just_above_the_def_is_fine(gap: str) -> None:
    """The handout forbids modifying the given comments, not adding one: a comment line of the
    student's between the template's block and the ``def`` (after a blank line or not)."""
    source = CLEAN.replace("def MiniMax(", f"{gap}# Implementation: recursive, then max/min.\n"
                           "def MiniMax(", 1)
    assert source != CLEAN
    assert run_altnim("template-comments", source) == []


def test_deleted_comments_below_the_def() -> None:
    source = TEMPLATE.replace(
        "    # Children are visited in the order getRemovals gives them.\n", ""
    )
    [violation] = run_altnim("template-comments", source)
    assert "lines at the top of `MiniMax` (under the `def` line) are missing" in violation.message


def test_missing_functions_are_left_to_template_functions() -> None:
    source = CLEAN.replace("def isLeaf(state):", "def is_leaf(state):")
    assert run_altnim("template-comments", source) == []


def test_hash_inside_a_string_is_not_a_comment() -> None:
    template_source = "# Doc of f.\ndef f():\n    pass\n"
    source = 'x = """\n# Doc of f.\n"""\ndef f():\n    pass\n'
    [violation] = run_rule("template-comments", source, template=template_source)
    assert "above `f` is missing" in violation.message


def test_ignore_option() -> None:
    source = example("template_comments_edited.py")
    found = run_altnim("template-comments", source, ignore=["getRemovals", "isLeaf"])
    assert lines(found) == [61, None]


def test_methods_blocks_when_the_template_has_classes() -> None:
    template_source = "class Game:\n    # Play one move.\n    def play(self, move):\n        pass\n"
    source = "class Game:\n    # Play a move.\n    def play(self, move):\n        pass\n"
    [violation] = run_rule("template-comments", source, template=template_source)
    assert "above `Game.play`" in violation.message
    assert violation.line == 2


def test_missing_template_is_a_grader_error() -> None:
    with pytest.raises(GraderError):
        run_rule("template-comments", CLEAN)


# --- properties --------------------------------------------------------------------------

COMMENT_LINE = re.compile(r"^(?P<indent>\s*)(?P<comment>#.*)$")
SPACE = st.text(alphabet=" \t", min_size=1, max_size=3)
OPTIONAL_SPACE = st.text(alphabet=" \t", max_size=3)


@st.composite
def whitespace_variants(draw: st.DrawFn) -> str:
    """The clean solution with every comment line's whitespace changed at random.

    Each run of whitespace inside a comment becomes another non-empty run, indentation and
    trailing whitespace change, and blank (or whitespace-only) lines appear after comments.
    """
    out: list[str] = []
    for line in CLEAN.splitlines():
        match = COMMENT_LINE.match(line)
        if match is None:
            out.append(line)
            continue
        pieces = re.split(r"(\s+)", match["comment"])
        comment = "".join(draw(SPACE) if piece.isspace() else piece for piece in pieces)
        out.append(draw(OPTIONAL_SPACE) + comment + draw(OPTIONAL_SPACE))
        if draw(st.booleans()):
            out.append(draw(OPTIONAL_SPACE))
    return "\n".join(out) + "\n"


@HYPOTHESIS
@given(whitespace_variants())
def test_whitespace_changes_never_trigger(source: str) -> None:
    assert run_altnim("template-comments", source) == []


def _template_comment_lines() -> list[int]:
    """Lines of the clean solution that repeat a comment of a template function's block."""
    header_and_module = {"# Keep this import line exactly as it is.", "# End of myAltNimFunctions."}
    wanted = {
        line.strip()
        for line in TEMPLATE.splitlines()[7:]
        if line.strip().startswith("#") and line.strip() not in header_and_module
    }
    return [
        number
        for number, line in enumerate(CLEAN.splitlines(), 1)
        if number > 7 and line.strip() in wanted
    ]


EDITABLE = _template_comment_lines()
VISIBLE = st.characters(blacklist_categories=("Z", "C"))


@st.composite
def edited_comment(draw: st.DrawFn) -> tuple[str, int]:
    """The clean solution with one visible character of one template comment changed."""
    lines_ = CLEAN.splitlines()
    number = draw(st.sampled_from(EDITABLE))
    line = lines_[number - 1]
    start = line.index("#") + 1
    visible = [i for i in range(start, len(line)) if not line[i].isspace()]
    kind = draw(st.sampled_from(["insert", "replace", "delete"] if visible else ["insert"]))
    if kind == "insert":
        at = draw(st.integers(start, len(line)))
        line = line[:at] + draw(VISIBLE) + line[at:]
    else:
        at = draw(st.sampled_from(visible))
        new = draw(VISIBLE.filter(lambda c: c != line[at])) if kind == "replace" else ""
        line = line[:at] + new + line[at + 1 :]
    lines_[number - 1] = line
    return "\n".join(lines_) + "\n", number


def test_editable_lines_cover_every_function() -> None:
    separators, above, below = 5 * 2, 4 + 3 + 2 + 4 + 2, 1
    assert len(EDITABLE) == separators + above + below


@HYPOTHESIS
@given(edited_comment())
def test_any_visible_edit_of_a_template_comment_triggers(case: tuple[str, int]) -> None:
    source, number = case
    found = run_altnim("template-comments", source)
    assert [v.line for v in found] == [number]
    assert "differ" in found[0].message


def test_windows_and_old_mac_line_ends_keep_every_block() -> None:
    """A clean solution saved with ``\\r\\n`` or ``\\r`` line ends: every comment block is read
    on its line, as Python reads the file."""
    for end in ("\r\n", "\r"):
        assert run_altnim("template-comments", CLEAN.replace("\n", end)) == [], repr(end)
