"""Handout citations (graders/citations.py): markdown rendered with HTML escaped, and the PDF
damage `grade selfcheck ID` flags before anything is graded."""

from __future__ import annotations

import pytest

from graders.citations import damage, render
from graders.pack import Pack, get_pack
from graders.selfcheck import declaration_problems

# As the PDF-to-text copy of the stonehenge handout had them (shared/seeds).
DAMAGED = {
    "you should be able to \\plug in\u201d your new classes": "stray control sequence `\\plug`",
    "the row of cells above the row they?re connected to": "`they?re`",
    "The rst player to capture at least half": "`rst`: `first`",
    "at the bottom of each of the les you submit.": "`les`: `files`",
    "a move that is di erent from the last": "`di erent`: `different`",
    "a form feed \x0c in the text": "control character",
}


@pytest.mark.parametrize("text", sorted(DAMAGED))
def test_each_kind_of_pdf_damage_is_named(text):
    found = damage(text)
    assert len(found) == 1 and DAMAGED[text] in found[0], found


def test_mended_sentences_and_a_backslash_shown_as_code_are_clean():
    assert damage("be able to \u201cplug in\u201d your classes; the first player; the files "
                  "you submit; where they\u2019re connected; down-right diagonals (`\\`); "
                  "if __name__ == '__main__'; what's left? Nothing.") == []


@pytest.mark.parametrize("pack_id", ["altnim", "game_of_nim", "pnt", "stonehenge", "tippy"])
def test_every_packs_citations_are_clean(pack_id):
    assert not [p for p in declaration_problems(get_pack(pack_id)) if "citation" in p]


def test_the_selfcheck_flags_a_damaged_citation():
    pack = get_pack("stonehenge")
    first = pack.declaration.criteria[0]
    broken = first.model_copy(update={"handout": "The rst player wins; they?re \\emph{out}."})
    declaration = pack.declaration.model_copy(
        update={"criteria": [broken, *pack.declaration.criteria[1:]]})
    problems = declaration_problems(Pack(declaration, pack.dir, pack.root))
    flagged = [p for p in problems if p.startswith(f"criterion {first.id}: handout citation")]
    assert len(flagged) == 3, problems


def test_markdown_is_rendered_and_html_in_a_citation_stays_text():
    html = str(render("have a **constructor**; moves like `(r, n)` <img src=x onerror=alert(1)>"))
    assert "<strong>constructor</strong>" in html and "<code>(r, n)</code>" in html
    assert "<img" not in html and "&lt;img" in html
    assert "<a" not in str(render("[click](javascript:alert(1))"))  # shown as text
