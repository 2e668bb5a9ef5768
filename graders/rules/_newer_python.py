"""What only Python 3.12 and later read, in source a student wrote for a newer Python than the
grader's: an f-string that reuses its own quote or holds a backslash inside ``{}`` (PEP 701), a
``type`` statement or type parameters in brackets (PEP 695).

The source is read with ``tokenize`` where it can be (3.11's tokenizer reads a 3.12 f-string as
strings side by side, 3.12's as f-string tokens): comments, the lines inside a multi-line
string and where each f-string starts are then known, so a comment, a docstring or a plain
string ending in ``f`` is never taken for code. Else each line is read alone. A line over
``MAX_LINE`` characters is not examined (no student writes such an f-string, and the scan
would grow with the square of its length).
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from graders.source_lines import python_lines

MAX_LINE = 400
TEXT_LINES = ("#", ">>>", "...")  # a comment, or a doctest's example (read line by line)
PREFIX = re.compile(r"[A-Za-z]*")  # a string token's prefix: r, b, f, rf, ...
LOOSE_START = re.compile(r"""(?<![\w'"])(?:[rR][fF]|[fF][rR]?)(?=["'])""")
# Lines only Python 3.12 reads (PEP 695), by the message key that explains them.
NEWER_LINES = {
    "newer-type": re.compile(r"^\s*type\s+[A-Za-z_]\w*\s*(?:\[[^\]]*\])?\s*=(?!=)"),
    "newer-generic": re.compile(r"^\s*(?:(?:async\s+)?def|class)\s+[A-Za-z_]\w*\s*\["),
}


@dataclass
class Layout:
    """Where the code of a source is, as ``tokenize`` reads it."""

    starts: dict[int, list[int]] = field(default_factory=dict)  # line -> f-string columns
    comments: dict[int, int] = field(default_factory=dict)  # line -> where its comment starts
    in_strings: set[int] = field(default_factory=set)  # lines inside a multi-line string


def layout(source: str) -> Layout | None:
    """The layout of ``source``, or None when ``tokenize`` cannot read it."""
    found = Layout()
    fstring = getattr(tokenize, "FSTRING_START", None)  # Python 3.12 and later
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            row, column = token.start
            if token.type == tokenize.COMMENT:
                found.comments[row] = column
            elif token.type == fstring or (token.type == tokenize.STRING
                                           and "f" in _prefix(token.string)):
                found.starts.setdefault(row, []).append(column)
            if token.type == tokenize.STRING and token.end[0] > row:
                found.in_strings.update(range(row + 1, token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        return None
    return found


def newer_key(line: str, number: int, read: Layout | None,
              column: int | None = None) -> str | None:
    """The message key of the Python 3.12 feature that ``line`` (line ``number`` of a source
    laid out as ``read``) uses, if any; an f-string counts only where it spans ``column``
    (0-based), when one is given."""
    if read is not None:
        if number in read.in_strings:
            return None
        line = line[:read.comments.get(number, len(line))]
        starts = read.starts.get(number, [])
    elif line.lstrip().startswith(TEXT_LINES):
        return None
    else:
        starts = [match.start() for match in LOOSE_START.finditer(line)]
    if len(line) > MAX_LINE:
        return None
    for start in starts:
        quote = next((at for at in range(start, min(start + 3, len(line)))
                      if line[at] in "'\""), None)
        end = None if quote is None else _newer_fstring_end(line, quote + 1, line[quote])
        if end is not None and (column is None or start <= column <= end):
            return "newer-fstring"
    return next((key for key, pattern in NEWER_LINES.items() if pattern.match(line)), None)


def newer_lines(source: str) -> list[tuple[int, str]]:
    """(line number, message key) of every line of ``source`` that uses a 3.12 feature."""
    read = layout(source)
    keys = ((number, newer_key(line, number, read))
            for number, line in enumerate(python_lines(source), start=1))
    return [(number, key) for number, key in keys if key is not None]


def _prefix(text: str) -> str:
    """A string token's prefix (``rb``, ``f``, ``Rf``, ...), lower case."""
    found = PREFIX.match(text)
    return found.group().lower() if found else ""


def _newer_fstring_end(line: str, at: int, quote: str) -> int | None:
    """Where the one-line f-string whose text starts at ``at`` ends, when it is one Python
    3.12 reads and 3.11 does not: a string inside a ``{}`` field in its own quote, or one
    holding a backslash. None for any other (or one that does not end on this line)."""
    depth, newer = 0, False
    while at < len(line):
        char = line[at]
        if depth == 0 and char == quote:
            return at if newer else None
        if depth == 0:
            if line.startswith("{{", at) or char == "\\":
                at += 1  # an escaped brace, or an escape in the text: skip the next character
            elif char == "{":
                depth = 1
        elif char in "'\"":  # a string inside the field
            end = line.find(char, at + 1)
            if end < 0:
                return None
            newer = newer or char == quote or "\\" in line[at:end]
            at = end
        else:
            depth += (char in "{[(") - (char in "}])")
        at += 1
    return None
