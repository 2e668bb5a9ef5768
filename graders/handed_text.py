"""A handed-in file's text, as the interpreter (and the student) read it.

The bytes :mod:`graders.handin` read become text here: a Jupyter notebook standing for a
Python file is its code cells (:mod:`graders.notebooks`); a file behind a UTF-16 or UTF-32
byte-order mark (Notepad's "Unicode") or under a PEP 263 declaration is read in that encoding;
other bytes that are not UTF-8 are read as Windows-1252; a document under a ``.py`` name (a
saved web page, RTF, PDF, a picture) is named for what it is; a Python file's line ends are
Python's. What is not plain UTF-8 source is said in the problems, in the student's words.
"""

from __future__ import annotations

import codecs
import contextlib
import re

from graders.handin import problem
from graders.notebooks import NOTEBOOK_SUFFIX, notebook_code
from graders.rules.base import Violation
from graders.source_lines import declared_codec, python_newlines

# Byte-order marks of the wide encodings a Windows editor saves as "Unicode" (UTF-32 first:
# its little-endian mark begins with UTF-16's).
WIDE_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
             (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
# What students hand in under a .py name that is no source text, by its first bytes: a page
# saved from GitHub's file view, TextEdit's or WordPad's default format, a document, a picture.
DOCUMENTS = ((b"<!doctype html", "web page (HTML), as a browser saves a file's page on GitHub "
              "or an LMS"), (b"<html", "web page (HTML)"),
             (b"{\\rtf", "Rich Text (RTF) document, as TextEdit and WordPad save by default"),
             (b"%pdf-", "PDF document"), (b"pk\x03\x04", "zip archive (a Word .docx is one)"),
             (b"\xd0\xcf\x11\xe0", "Word 97-2003 document"), (b"\x89png", "PNG picture"),
             (b"\xff\xd8\xff", "JPEG picture"))
SURROGATE = re.compile("[\ud800-\udfff]")


def decoded(name: str, data: bytes, problems: list[Violation], *,
            handed: str | None = None) -> str:
    """The text of a file graded as ``name`` (``handed``: the path it was handed in under):
    a notebook's code cells when one stands for a Python file (:mod:`graders.notebooks`), in
    the file's own encoding, a Python file's line ends made ``\\n`` as Python reads them (a
    file saved on Windows, ``\\r\\n``, or an old Mac, ``\\r``, is graded, checked for style
    and run as the interpreter reads it; one that declares its encoding, PEP 263, is read in
    it). What is not plain UTF-8 and not declared is said in ``problems``."""
    if handed is not None:
        data = _notebook_as_code(name, handed, data, problems)
    text = _text(name, data, problems)
    return python_newlines(text) if name.endswith(".py") else text


def _notebook_as_code(name: str, handed: str, data: bytes, problems: list[Violation]) -> bytes:
    if not (handed.lower().endswith(NOTEBOOK_SUFFIX) and name.endswith(".py")):
        return data
    code = notebook_code(data)
    if code is None:
        return data
    problems.append(problem(
        "notebook", handed, f"is a Jupyter notebook: its code cells, in order, were graded as "
        f"`{name}`. Hand in a .py file instead (in Jupyter: File > Download as > Python)"))
    return code.encode("utf-8")


def _text(name: str, data: bytes, problems: list[Violation]) -> str:
    if not data or data.isspace():
        problems.append(problem("empty-file", name, "is empty"))
    python = name.endswith(".py")
    document = _document(data)
    if document is not None and python:
        problems.append(problem("not-source", name, f"is a {document}, not Python source text: "
                                "Python cannot run it. Hand in the .py file itself, as your "
                                "editor saves it"))
        return data.decode("utf-8", errors="replace")
    wide = next((codec for bom, codec in WIDE_BOMS if data.startswith(bom)), None)
    if wide is not None:  # Notepad's "Unicode": the student's text, in an unambiguous codec
        with contextlib.suppress(UnicodeDecodeError):
            text = data.decode(wide).removeprefix("\ufeff")
            problems.append(problem(
                "source-encoding", name, f"is {wide.upper()} (what Notepad calls Unicode), not "
                f"UTF-8: Python cannot run it as it is. It was read as {wide.upper()}; save it "
                "as UTF-8"))
            return text
    declared = declared_codec(data) if python else None
    if declared is not None:  # PEP 263: Python reads the file in the encoding it declares
        read = _in_declared(name, data, declared, problems)
        if read is not None:
            return read
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if declared is None:
            problems.append(problem(
                "source-encoding", name,
                f"is not UTF-8 ({_where(data, exc.start)}); it was read as Windows-1252: save "
                "it as UTF-8"))
        return data.decode("cp1252", errors="replace")


def _where(data: bytes, offset: int) -> str:
    """Where byte ``offset`` is, as an editor shows it: its line, and the byte's value."""
    line = data.count(b"\n", 0, offset) + 1
    return f"line {line}, the byte 0x{data[offset]:02x}"


def _document(data: bytes) -> str | None:
    """What a handed-in file is when its first bytes name a document, else None. A UTF-8
    byte-order mark (Notepad writes one when it re-saves a page) does not hide it."""
    head = data[:4096].removeprefix(codecs.BOM_UTF8).lstrip()[:20].lower()  # never a 2 MB copy
    return next((kind for magic, kind in DOCUMENTS if head.startswith(magic)), None)


def _in_declared(name: str, data: bytes, declared: str,
                 problems: list[Violation]) -> str | None:
    """The file read in the encoding it declares; None, with a problem that says so, when it
    is not in it (Python cannot read it either)."""
    try:
        text = data.decode(declared)
        found = SURROGATE.search(text)  # half a character: no source text
        if found is None:
            return text
        where = f"character {found.start()}"
    except UnicodeDecodeError as exc:
        where = _where(data, exc.start)
    except UnicodeError:
        where = "its text"
    problems.append(problem(
        "source-encoding", name, f"declares the encoding {declared} on its first lines but is "
        f"not in it ({where}): Python cannot read it. It was read as UTF-8 or Windows-1252; save "
        f"it in the encoding it declares, or declare utf-8"))
    return None
