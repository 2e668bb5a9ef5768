"""The hidden cases expose every rule of the handout (graders/packs/pnt/oracle.py, generate.py).

The flawed-search model must first be right without a flaw: it reproduces the golden file of
every hidden case and the official outputs. Then each flaw (one broken handout rule) must
change the printed output of at least three hidden cases, so a program that breaks that rule
loses more than a single share.
"""

from __future__ import annotations

import pytest

from graders.pack import get_pack
from graders.packs.pnt import generate
from graders.packs.pnt.checks import HIDDEN_NAMES, Position, hidden_cases, parse_cases, parse_output
from graders.packs.pnt.oracle import FLAWS, exposes, position_error, search

PACK = get_pack("pnt")
MINIMUM = 3


@pytest.fixture(scope="module")
def rule_cases() -> dict[str, Position]:
    return parse_cases((PACK.fixtures_dir / "inputs" / "rules.txt").read_text())


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


@pytest.mark.parametrize("name", HIDDEN_NAMES)
def test_model_without_flaws_matches_the_golden_files(name: str) -> None:
    expected = parse_output((PACK.fixtures_dir / "golden" / f"{name}.txt").read_text())
    assert printed(search(hidden_cases(PACK)[name])) == expected.values


def test_hidden_cases_are_the_named_ones_and_valid() -> None:
    cases = hidden_cases(PACK)
    assert list(cases) == HIDDEN_NAMES
    assert {name: position_error(p) for name, p in cases.items() if position_error(p)} == {}


def test_model_without_flaws_matches_the_official_outputs() -> None:
    official = parse_cases(PACK.template_text("testcase.txt"))
    for number, (name, position) in enumerate(official.items(), 1):
        expected = parse_output(PACK.template_text(f"output{number}.txt"))
        assert printed(search(position)) == expected.values, name


@pytest.mark.parametrize("flaw", sorted(FLAWS))
def test_each_rule_is_exposed_by_three_rule_cases(rule_cases, flaw: str) -> None:
    shown = [name for name, position in rule_cases.items() if exposes(position, flaw)]
    assert len(shown) >= MINIMUM, shown


def test_rule_cases_are_reproducible() -> None:
    text = (PACK.fixtures_dir / "inputs" / "rules.txt").read_text()
    words = text.splitlines()[0].split()
    seed = int(words[words.index("--seed") + 1])
    per_rule = int(words[words.index("--per-rule") + 1])
    assert per_rule >= MINIMUM
    assert text == generate.case_file(seed, per_rule=per_rule, prefix="rule")


def test_rule_cases_include_new_games_and_depth_limits(rule_cases) -> None:
    positions = list(rule_cases.values())
    assert any(not p.taken for p in positions)
    assert any(p.depth for p in positions) and any(not p.depth for p in positions)


def test_impossible_cover_fails_clearly() -> None:
    # Full-depth, one-move positions cannot show the evaluation's rules.
    with pytest.raises(ValueError, match="cannot expose"):
        generate.choose([Position(7, (1, 4, 2), 0)], per_rule=1)


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
    [position] = parse_cases(args).values()
    assert printed(search(position))[field] == right
    assert printed(search(position, {flaw}))[field] == wrong
