"""Rule ``pep8``: pycodestyle's messages on a file, read as pycodestyle reads a file."""

from __future__ import annotations

from rules_testkit import example, run_rule

CLEAN = example("pep8_clean.py")
# As the packs declare it: W503 and W504 (a line break before / after an operator) contradict.
OPTIONS = {"ignore": ["W503", "W504"]}


def codes(source: str) -> list[str]:
    return [v.message.split(": ", 1)[1].split(" ", 1)[0] for v in run_rule("pep8", source, OPTIONS)]


def test_a_tidy_file_has_no_message():
    assert codes(CLEAN) == []


def test_a_message_names_its_line_and_code():
    (found,) = run_rule("pep8", CLEAN.replace("self.value = 0", "self.value=0"), OPTIONS)
    assert found.line == 14 and "E225" in found.message


def test_windows_and_old_mac_line_ends_are_read_as_pycodestyle_reads_the_file():
    """A line ending in a keyword (``or``) then ``\\r\\n`` is no E275 (``\\r`` is no character
    after the keyword): a file saved on Windows loses nothing."""
    assert codes(CLEAN.replace("\n", "\r\n")) == []
    assert codes(CLEAN.replace("\n", "\r")) == []


def test_a_line_separator_or_form_feed_is_a_character_of_its_line():
    """U+2028 in a docstring (pasted from a web page) and a form-feed line (a page break) do
    not split lines: no continuation-line messages, and the next message keeps its line."""
    source = CLEAN.replace("player has won", "player has\u2028won").replace(
        "\n\nclass", "\n\x0c\nclass")
    assert codes(source) == []
    (found,) = run_rule("pep8", source.replace("self.value = 0", "self.value=0"), OPTIONS)
    assert found.line == 14  # as in the file without them


def test_a_file_python_cannot_read_is_checked_above_its_syntax_error(tmp_path):
    """An unclosed bracket makes pycodestyle read every later line as a continuation (E128,
    E251, ...): that noise cost tippy's style criterion all 5 points on top of the syntax
    error. The lines above the break are checked (the break is the syntax error's one
    charge), and another file's messages still count."""
    from graders.checks import run_rules
    from graders.pack import get_pack
    from graders.submissions import prepare

    pack = get_pack("tippy")
    folder = tmp_path / "alice"
    folder.mkdir()
    for name in pack.submitted_files:
        (folder / name).write_bytes((pack.reference_dir / name).read_bytes())
    state = folder / "tippy_game_state.py"
    text = state.read_text(encoding="utf-8")
    cut = text.index("\n", text.index("def __init__"))
    broken_at = text[:cut].count("\n") + 2
    state.write_text(text[:cut].replace("import", "import  ", 1) + "\n        self.broken = (1,\n"
                     + text[cut:], encoding="utf-8")
    move = folder / "tippy_move.py"
    move.write_text(move.read_text(encoding="utf-8") + "\n\nx=1\n", encoding="utf-8")
    found = run_rules(pack, prepare(folder, pack, tmp_path / "work"))
    in_state = [(v.rule, v.kind, v.line) for v in found if v.file == "tippy_game_state.py"]
    assert in_state[0][0] == "syntax-error"
    assert [(kind, line) for rule, kind, line in in_state if rule == "pep8"] == [
        ("E271", 1 + text[:text.index("import")].count("\n"))]
    assert broken_at > 1 + text[:text.index("import")].count("\n")
    assert [v.kind for v in found if v.file == "tippy_move.py"] == ["E225"]
