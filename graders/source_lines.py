"""A Python file's lines as the interpreter numbers them.

Python reads source with universal newlines: ``\\n``, ``\\r\\n`` and a lone ``\\r`` each end a
line, and nothing else does. ``str.splitlines`` also splits at a form feed, ``\\x0b``,
``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028`` and ``\\u2029``, which Python reads as characters of
the line (an Emacs page break, a line separator pasted from a web page into a comment). Every
line number the grader shows or compares with ``ast``'s and ``tokenize``'s comes from here, so
a file saved on Windows or an old Mac, or one holding such a character, is read line for line
as the interpreter (and pycodestyle or python_ta reading the file) reads it.

A file may declare its encoding in its first two lines (PEP 263: ``# -*- coding: cp1252 -*-``);
:func:`declared_codec` reads that declaration and :func:`python_bytes` writes a text back in
it, so the interpreter in the sandbox reads the student's text as theirs did.
"""

from __future__ import annotations

import io
import tokenize


def python_newlines(text: str) -> str:
    """``text`` with every ``\\r\\n`` and lone ``\\r`` made ``\\n``, as Python reads it."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def python_lines(text: str, *, keepends: bool = False) -> list[str]:
    """The lines of ``text`` as Python numbers them (line N is item N - 1); with
    ``keepends`` each keeps its ``\\n`` (the last only if the text ends with one), as a file's
    ``readlines()`` gives them."""
    lines = io.StringIO(text, newline=None).readlines()
    return lines if keepends else [line[:-1] if line.endswith("\n") else line for line in lines]


def declared_codec(data: bytes) -> str | None:
    """The encoding a Python file's first two lines declare (PEP 263), when it is not
    UTF-8; None when it declares none, UTF-8, or one no Python source can be in."""
    head = data[:4096].replace(b"\r\n", b"\n").replace(b"\r", b"\n")  # an old Mac's lines too
    try:
        codec, _ = tokenize.detect_encoding(io.BytesIO(head).readline)
        # A source encoding keeps ASCII as it is (not UTF-16); rot13 or zlib are no text
        # encodings at all (LookupError).
        plain = "# coding".encode(codec) == b"# coding"
    except (SyntaxError, LookupError, UnicodeError):
        return None
    return None if codec in ("utf-8", "utf-8-sig") or not plain else codec


def python_bytes(text: str) -> bytes:
    """The bytes the interpreter reads back as ``text``: UTF-8, or the encoding the text's
    own first lines declare (a file read in that encoding is written back in it, not as UTF-8
    under a declaration that says otherwise)."""
    data = text.encode("utf-8", "surrogatepass")  # half a character stays what it was
    codec = declared_codec(data)
    if codec is None:
        return data
    try:
        written = text.encode(codec)
        return written if written.decode(codec) == text else data
    except UnicodeError:
        return data
