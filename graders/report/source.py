"""The student's source on their page: highlighted with Pygments, line by line, and links from
tracebacks and error output to those lines.

Everything is returned as plain ``(css class, text)`` or ``(text, anchor)`` parts, so the
templates escape every character the student wrote (no HTML from here is trusted).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import PurePosixPath

from pygments.lexers import PythonLexer
from pygments.token import Comment, Keyword, Name, Number, Operator, String, _TokenType

MAX_HIGHLIGHT = 300_000  # characters: a longer file is shown plain (it is not code anyone wrote)
LINE_BREAK = re.compile(r"\r\n|\r|\n")
# `File "/sandbox/x.py", line 12` (tracebacks) and `(x.py, line 12)` (SyntaxError messages)
FRAME = re.compile(
    r'File "(?P<a>[^"\n]+)", line (?P<al>\d+)|\((?P<b>[^()\s,]+\.py), line (?P<bl>\d+)\)'
)
CLASSES = (  # most specific first: the first token type that contains a token names its class
    (Name.Function, "nf"), (Name.Class, "nc"), (Name.Decorator, "nd"), (Name.Builtin, "nb"),
    (Keyword, "k"), (String, "s"), (Comment, "c"), (Number, "m"), (Operator.Word, "k"),
    (Operator, "o"),
)
Part = tuple[str, str]


def lines_of(text: str) -> list[str]:
    """``text`` cut into lines as Python numbers them (``\\n``, ``\\r\\n`` or ``\\r``)."""
    lines = LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


@functools.lru_cache(maxsize=64)  # a starter file many students hand in is lexed once
def highlighted(name: str, text: str) -> list[list[Part]]:
    """Each line of the file as ``(css class, text)`` parts ("" for plain text); the same
    number of lines as :func:`lines_of`. Python files are highlighted, others shown plain.
    The result is shared between callers: read it, never change it."""
    plain = [[("", line)] if line else [] for line in lines_of(text)]
    if not name.endswith(".py") or len(text) > MAX_HIGHLIGHT:
        return plain
    lexer = PythonLexer(stripnl=False, ensurenl=False, tabsize=0)
    rows: list[list[Part]] = [[]]
    try:
        for token, value in lexer.get_tokens("\n".join(lines_of(text))):
            for number, piece in enumerate(value.split("\n")):
                if number:
                    rows.append([])
                if not piece:
                    continue
                css, row = _css(token), rows[-1]
                if row and row[-1][0] == css:  # one span per run of one colour: a smaller page
                    row[-1] = (css, row[-1][1] + piece)
                else:
                    row.append((css, piece))
    except Exception:  # noqa: BLE001 - a lexer bug must never cost the page: show it plain
        return plain
    return rows if len(rows) == len(plain) else plain


@functools.cache  # a few dozen token types, met thousands of times per file
def _css(token: _TokenType) -> str:
    for kind, css in CLASSES:
        if token in kind:
            return css
    return ""


def file_anchors(files: Mapping[str, str], aliases: Mapping[str, str]) -> dict[str, str]:
    """Every name a traceback may use for a shown file (its graded name, its base name and
    the name it was handed in under) -> that file's anchor (``file-N``)."""
    anchors: dict[str, str] = {}
    for index, name in enumerate(files, 1):
        anchor = f"file-{index}"
        anchors.setdefault(name, anchor)
        anchors.setdefault(PurePosixPath(name).name, anchor)
    for graded, handed_in in aliases.items():
        if graded in anchors:
            anchors.setdefault(PurePosixPath(handed_in).name, anchors[graded])
            anchors.setdefault(handed_in, anchors[graded])
    return anchors


def linked(text: str, anchors: Mapping[str, str]) -> list[tuple[str, str | None]]:
    """``text`` as ``(text, anchor or None)`` parts: each ``File "...", line N`` of a shown
    file links to that line of the file on the page."""
    parts: list[tuple[str, str | None]] = []
    last = 0
    for match in FRAME.finditer(text):
        path = match.group("a") or match.group("b")
        line = match.group("al") or match.group("bl")
        anchor = _anchor_for(path, anchors)
        if anchor is None:
            continue
        parts.append((text[last:match.start()], None))
        parts.append((match.group(0), f"{anchor}-L{line}"))
        last = match.end()
    parts.append((text[last:], None))
    return [(piece, anchor) for piece, anchor in parts if piece]


def _anchor_for(path: str, anchors: Mapping[str, str]) -> str | None:
    posix = PurePosixPath(path.replace("\\", "/"))
    for start in range(len(posix.parts)):  # the longest tail of the path that names a file
        tail = "/".join(posix.parts[start:])
        if tail in anchors:
            return anchors[tail]
    return None


def deepest_frame(text: str, anchors: Mapping[str, str]) -> str | None:
    """The anchor of the deepest frame in ``text`` that is in a shown file: the line of the
    student's code where the failing call ended."""
    found = [anchor for _, anchor in linked(text, anchors) if anchor]
    return found[-1] if found else None
