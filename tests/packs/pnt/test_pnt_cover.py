"""The hidden cases expose every rule of the handout (graders/packs/pnt/variants.py, cover.py).

The flawed-search model must first be right without a flaw: it reproduces the golden file of
every hidden case and the official outputs. Then each flaw (one broken handout rule) must
change the printed output of at least three hidden cases, so a program that breaks that rule
loses more than a single share.
"""

from __future__ import annotations

import pytest

from graders.packs import get_pack
from graders.packs.pnt import cover
from graders.packs.pnt.cases import parse_cases
from graders.packs.pnt.grading import hidden_cases
from graders.packs.pnt.output import parse_output
from graders.packs.pnt.positions import Position
from graders.packs.pnt.variants import FLAWS, exposes, search

PACK = get_pack("pnt")
HIDDEN = hidden_cases()
RULE_CASES = parse_cases((PACK.fixtures_dir / "inputs" / "rules.txt").read_text(), strict=True)
MINIMUM = 3


def printed(result: tuple) -> dict:
    """The six fields as a program prints them (floats to one decimal)."""
    move, value, visited, evaluated, depth, abf = result
    return {
        "move": move,
        "value": float(f"{value:.1f}"),
        "visited": visited,
        "evaluated": evaluated,
        "max_depth": depth,
        "branching": float(f"{abf:.1f}"),
    }


@pytest.mark.parametrize("case", HIDDEN, ids=[c.name for c in HIDDEN])
def test_model_without_flaws_matches_the_golden_files(case) -> None:
    expected = parse_output((PACK.fixtures_dir / "golden" / f"{case.name}.txt").read_text())
    assert printed(search(case.position)) == expected.values


def test_model_without_flaws_matches_the_official_outputs() -> None:
    official = parse_cases(PACK.template_text("testcase.txt"))
    for number, case in enumerate(official, 1):
        expected = parse_output(PACK.template_text(f"output{number}.txt"))
        assert printed(search(case.position)) == expected.values, case.name


@pytest.mark.parametrize("flaw", sorted(FLAWS))
def test_each_rule_is_exposed_by_three_rule_cases(flaw: str) -> None:
    shown = [case.name for case in RULE_CASES if exposes(case.position, flaw)]
    assert len(shown) >= MINIMUM, shown


def test_rule_cases_are_reproducible() -> None:
    text = (PACK.fixtures_dir / "inputs" / "rules.txt").read_text()
    words = text.splitlines()[0].split()
    seed = int(words[words.index("--seed") + 1])
    per_rule = int(words[words.index("--per-rule") + 1])
    assert per_rule >= MINIMUM
    assert text == cover.case_file(seed, per_rule, prefix="rule")


def test_rule_cases_include_new_games_and_depth_limits() -> None:
    positions = [case.position for case in RULE_CASES]
    assert any(not p.taken for p in positions)
    assert any(p.depth for p in positions) and any(not p.depth for p in positions)


def test_impossible_cover_fails_clearly() -> None:
    # Full-depth, one-move positions cannot show the evaluation's rules.
    with pytest.raises(ValueError, match="cannot expose"):
        cover.choose([Position(7, (1, 4, 2), 0)], per_rule=1)


def test_unknown_flaw_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown flaws"):
        search(Position(7, (1,), 2), {"no_such_flaw"})


@pytest.mark.parametrize(
    ("flaw", "args", "field", "right", "wrong"),
    [
        # n=10 new game: 5 is not strictly below n/2, 2 and 4 are not odd.
        ("first_move_not_strict", "10 0 1", "visited", 3, 4),
        # Depth-limited leaves with Min to move, last move 2 (prime): the sign decides.
        ("eval_sign_min", "7 1 3 2", "value", 0.5, 0.0),
    ],
)
def test_flaws_break_what_they_name(flaw, args, field, right, wrong) -> None:
    [case] = parse_cases(args)
    assert printed(search(case.position))[field] == right
    assert printed(search(case.position, {flaw}))[field] == wrong
