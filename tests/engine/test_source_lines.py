"""A file's lines are numbered as the interpreter numbers them (``graders.source_lines``): at
``\\n``, ``\\r\\n`` and a lone ``\\r`` only, never at the form feeds, ``\\x85`` or ``\\u2028``
that ``str.splitlines`` also splits at, and a handed-in Python file is graded with the line
ends Python reads, in the encoding its first lines declare (PEP 263)."""

from __future__ import annotations

import io
import tokenize

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graders.pack import get_pack
from graders.source_lines import declared_codec, python_bytes, python_lines, python_newlines
from graders.submissions import prepare

# Every character some splitter treats as a line end, and plain text around them.
TEXT = st.lists(st.sampled_from([*"ab #\t", "\n", "\r", "\r\n", "\x0c", "\x0b", "\x1c", "\x85",
                                 "\u2028", "\u2029"])).map("".join)


@given(TEXT)
def test_lines_are_a_files_readlines(text):
    """What reading the text from a file in text mode gives, line for line."""
    read = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8").readlines()
    assert python_lines(text, keepends=True) == read
    assert python_lines(text) == [line.removesuffix("\n") for line in read]
    assert python_newlines(text) == "".join(read)


@given(st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=1, max_size=6),
       st.sampled_from(["\x0c", "\x85", "\u2028", "\u2029", "\x1c"]))
def test_a_comments_line_is_the_one_tokenize_gives(ends, odd):
    """Comment N of the source sits on the line tokenize numbers N, whatever the line ends and
    whatever odd character a comment holds."""
    source = "".join(f"x = {i}  # note {i}{odd}more{end}" for i, end in enumerate(ends))
    lines = python_lines(source)
    comments = [token for token in tokenize.generate_tokens(io.StringIO(
        python_newlines(source)).readline) if token.type == tokenize.COMMENT]
    assert len(comments) == len(ends) == len(lines)
    for token in comments:
        assert lines[token.start[0] - 1].endswith(token.string)


def test_a_handed_in_python_file_is_read_with_pythons_line_ends(tmp_path):
    """``\\r\\n`` and ``\\r`` become ``\\n`` in every Python file, helpers too (the rules, the
    tools and the workspace all read it so)."""
    pack = get_pack("altnim")
    source = tmp_path / "hand-in"
    source.mkdir()
    (source / "myAltNimFunctions.py").write_bytes(b"# one\r\n# two\rx = 1\r\n")
    (source / "helper.py").write_bytes(b"y = 2\r")
    submission = prepare(source, pack, tmp_path / "work")
    assert submission.files["myAltNimFunctions.py"] == "# one\n# two\nx = 1\n"
    assert (submission.workspace / "myAltNimFunctions.py").read_bytes() == b"# one\n# two\nx = 1\n"
    assert submission.files["helper.py"] == "y = 2\n"


# Codecs a file may declare (PEP 263), and text in and out of them.
CODECS = ["cp1252", "latin-1", "iso-8859-15", "cp437", "koi8-r"]
WRITABLE = st.text(alphabet=st.sampled_from([*"aZ09 #=\"", "\u00e9", "\u00c1", "\u00f1",
                                              "\u00fc"]))


DECLARATIONS = ["# -*- coding: {} -*-", "# vim: set fileencoding={} :",
                "#!/usr/bin/env python3\n# coding={}"]


@given(st.sampled_from(CODECS), st.sampled_from(DECLARATIONS), WRITABLE)
def test_a_text_is_written_in_the_encoding_it_declares(codec, declaration, body):
    """What Python compiles from the bytes :func:`python_bytes` writes is the text itself:
    its declared encoding, or UTF-8 when it declares none."""
    body = "".join(c for c in body if c.encode(codec, "ignore"))  # what the codec writes
    text = declaration.format(codec) + f"\ns = {body!r}\n"
    data = python_bytes(text)
    assert declared_codec(data) is not None
    space: dict = {}
    exec(compile(data, "<hand-in>", "exec"), space)
    assert space["s"] == body
    plain = f"s = {body!r}\n"
    assert python_bytes(plain) == plain.encode("utf-8") and declared_codec(plain.encode()) is None


def test_a_declared_encoding_is_read_and_written_back_as_python_reads_it(tmp_path):
    """A cp1252 file that says so is the student's text with no encoding notice, and the
    workspace holds its own bytes: as UTF-8 under the cp1252 declaration, the `\u00c1` of
    its header was a byte cp1252 does not define, a SyntaxError in every run. A UTF-8 file
    that declares Latin-1 is read as Python reads it, Latin-1."""
    pack = get_pack("altnim")
    cp1252 = "# -*- coding: cp1252 -*-\n# \u00c1lvaro N\u00fa\u00f1ez\nname = '\u00c1lvaro'\n"
    mislabelled = "# coding: latin-1\nname = 'Zo\u00eb'\n"
    for text, data in ((cp1252, cp1252.encode("cp1252")), (mislabelled.encode().decode("latin-1"),
                                                           mislabelled.encode())):
        source = tmp_path / f"hand-in-{len(text)}"
        source.mkdir()
        (source / "myAltNimFunctions.py").write_bytes(data)
        submission = prepare(source, pack, tmp_path / f"work-{len(text)}")
        assert submission.files["myAltNimFunctions.py"] == text
        assert not [p for p in submission.problems if p.rule == "source-encoding"]
        written = (submission.workspace / "myAltNimFunctions.py").read_bytes()
        assert written == data
        compile(written, "myAltNimFunctions.py", "exec")


@pytest.mark.parametrize("codec", ["rot13", "zlib", "base64", "utf-16", "utf-32-be", "punycode",
                                   "undefined", "no-such-codec"])
def test_a_declaration_no_source_can_be_in_is_not_followed(tmp_path, codec):
    """rot13 and zlib are no text encodings, UTF-16 does not keep the declaration's own
    ASCII: the file is read and written as if it declared nothing (never a grader crash)."""
    text = f"# coding: {codec}\nx = 1\n"
    assert declared_codec(text.encode()) is None and python_bytes(text) == text.encode()
    source = tmp_path / "hand-in"
    source.mkdir()
    (source / "myAltNimFunctions.py").write_bytes(text.encode())
    submission = prepare(source, get_pack("altnim"), tmp_path / "work")
    assert submission.files["myAltNimFunctions.py"] == text


def test_utf7_is_read_as_python_runs_it():
    """A UTF-7 declaration is followed: what hides behind ``+AAo-`` is a line of code to the
    rules, as it is to the interpreter."""
    data = b"# coding: utf-7\n# note +AAo-import os\n"
    assert declared_codec(data) == "utf-7"
    space: dict = {}
    exec(compile(data, "<hand-in>", "exec"), space)
    assert "os" in space
    assert python_lines(data.decode("utf-7"))[2] == "import os"


@pytest.mark.parametrize(("data", "says"), [
    ("# -*- coding: ascii -*-\n# Ren\u00e9e\nx = 1\n".encode(), "declares the encoding ascii"),
    (b'# coding: unicode_escape\nX = "\\ud800"\n', "declares the encoding unicode_escape"),
    ("# -*- coding: cp1252 -*-\r# \u00c1lvaro\rx = 1\r".encode("cp1252"), None),
    ('# -*- coding: koi8-r -*-\rs = "\u043f\u0440\u0438\u0432\u0435\u0442"\r'.encode("koi8-r"),
     None),
])
def test_a_declaration_the_file_breaks_is_said_and_an_old_macs_is_kept(tmp_path, data, says):
    """A file not in the encoding it declares (Python cannot read it either) says so, and
    half a character never crashes intake; a declaration in a file with an old Mac's line
    ends (a lone \\r) is found as Python finds it, and the workspace keeps its encoding."""
    source = tmp_path / "hand-in"
    source.mkdir()
    (source / "myAltNimFunctions.py").write_bytes(data)
    submission = prepare(source, get_pack("altnim"), tmp_path / "work")
    messages = [p.message for p in submission.problems if p.rule == "source-encoding"]
    if says is None:
        assert messages == []
        assert (submission.workspace / "myAltNimFunctions.py").read_bytes() == \
            data.replace(b"\r", b"\n")
    else:
        assert len(messages) == 1 and says in messages[0]
