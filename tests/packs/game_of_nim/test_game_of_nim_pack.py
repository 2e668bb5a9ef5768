"""The game_of_nim declaration and golden recipe: settings that work for either rule."""

from __future__ import annotations

import pytest

from graders.errors import StudentError
from graders.pack import get_pack
from graders.packs.game_of_nim.checks import TRANSCRIPT, expect_state, field, handout_game
from graders.testing import MODE_NAMES

PACK = get_pack("game_of_nim")


def test_settings_are_usable():
    settings = PACK.settings
    assert settings["rule"] in ("misere", "normal")
    assert settings["transcript_mode"] in MODE_NAMES
    assert 0 < PACK.limits.per_call < settings["replay_seconds"] <= PACK.limits.wall_seconds
    assert PACK.declaration.max_points == 100


def test_golden_run_plays_the_handouts_game_under_the_graded_rule():
    golden = PACK.declaration.golden_spec(TRANSCRIPT)
    assert golden.public
    board, typed, rule = handout_game(PACK)
    assert (board, typed) == ([7, 5, 3, 1], ["(0,6)", "(3,1)", "(2,2)", "(1,1)"])
    assert rule == PACK.settings["rule"]
    compile(golden.runs[0].argv[2], "<golden>", "exec")


@pytest.mark.parametrize(("rule", "last_move"), [("misere", "(1, 1)"), ("normal", "(1, 2)")])
def test_handout_game_finishes_under_either_rule(env, rule: str, last_move: str) -> None:
    board, typed, _ = handout_game(PACK)
    out = env.driver.replay(board, typed, rule)
    assert out["error"] is None
    assert out["transcript"].endswith(f"{last_move}\nboard: [0, 0, 0, 0]\nMAX won the game\n")


def words(text: str) -> str:
    return " ".join(text.split())


def test_every_criterion_quotes_the_handout() -> None:
    # fixtures/game_of_nim/handout.txt is the course's handout, as distributed.
    handout = words((PACK.fixtures_dir / "handout.txt").read_text())
    for criterion in PACK.declaration.criteria:
        quote = words(criterion.handout)
        assert quote.startswith("instructor's choice: ") or quote in handout, criterion.id


def test_no_rule_is_declared() -> None:
    # syntax-error runs on every file anyway; nothing in the handout calls for another rule.
    assert PACK.declaration.rules == []


def test_a_field_that_raised_is_the_students_failure() -> None:
    state = {"to_move": "MAX", "board": [1], "moves": {"error": "KeyError: 'x' (a.py, line 3)"}}
    assert field(state, "to_move", "here") == "MAX"
    with pytest.raises(StudentError, match=r"its moves raised KeyError: 'x' \(a.py, line 3\)"):
        expect_state(state, [1], [], "the initial state")
