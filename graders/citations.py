"""Handout citations: how the reports show them, and the PDF damage `grade selfcheck` flags.

A citation (``handout = "..."`` in ``assignment.toml``) is a sentence of the handout, often
copied out of a PDF. It may use inline markdown (``**constructor**``, backticks), rendered by
markdown-it-py with raw HTML escaped. :func:`damage` names what a PDF copy leaves behind: a
TeX control sequence (``\\plug in``), a control character, ``?`` standing for an apostrophe
(``they?re``) and a word that lost its ligature (``rst`` for ``first``; the words are data,
``citations.toml``).
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup

from graders.pack import Pack

WORDS_FILE = Path(__file__).with_name("citations.toml")
CONTROL_SEQUENCE = re.compile(r"\\[A-Za-z]+")
CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufffd]")
QUESTION_APOSTROPHE = re.compile(r"\b[A-Za-z]+\?(?:s|t|re|ve|ll|d|m)\b")


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False})


def render(text: str) -> Markup:
    """A citation as inline HTML: its markdown rendered, any HTML in it shown as text."""
    return Markup(_markdown().renderInline(text))


@cache
def _ligatures() -> dict[str, str]:
    with WORDS_FILE.open("rb") as handle:
        return {str(k): str(v) for k, v in tomllib.load(handle)["ligatures"].items()}


def damage(text: str) -> list[str]:
    """What in ``text`` looks like PDF damage, each in words saying what it likely was."""
    found = [f"stray control sequence `{m.group()}`" for m in CONTROL_SEQUENCE.finditer(text)]
    found += [f"control character {m.group()!r}" for m in CONTROL_CHARACTER.finditer(text)]
    found += [f"`{m.group()}`: `?` where an apostrophe belongs"
              for m in QUESTION_APOSTROPHE.finditer(text)]
    for broken, word in _ligatures().items():
        pattern = r"(?<![\w-])" + re.escape(broken).replace(r"\ ", " ") + r"(?![\w-])"
        if re.search(pattern, text, flags=re.IGNORECASE):
            found.append(f"`{broken}`: `{word}` with its ligature lost")
    return found


def pack_damage(pack: Pack) -> list[str]:
    """Every damaged citation of ``pack`` (criteria, rules, environment), named."""
    declaration = pack.declaration
    cited = [(f"criterion {c.id}", c.handout) for c in declaration.criteria]
    cited += [(f"rule {r.name}", r.handout) for r in declaration.rules]
    cited.append(("[environment]", declaration.environment.handout))
    return [f"{what}: handout citation has {problem}"
            for what, text in cited for problem in damage(text)]
