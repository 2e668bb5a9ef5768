"""``right_on_either`` (graders/testing.py): a student's strategy is judged on the instructor's
game, and on the student's own only where it could not play on the instructor's (it raised, or
answered what that game cannot take); one failure is reported, saying where it played."""

from __future__ import annotations

import pytest

from graders.errors import StudentError, StudentTimeout
from graders.testing import Mismatch, Unplayable, right_on_either


def games(log: list[str]):
    def made(name: str):
        def game():
            log.append(name)
            return name
        return game
    return [made("instructor"), made("own")]


def raising_on(*where: str, error=StudentError):
    def ask(game):
        if game in where:
            raise error(f"`minimax_move` raised TypeError on the {game} game")
        return f"move on the {game} game"
    return ask


def never_wrong(answer):
    return None


def test_the_own_game_is_made_and_asked_only_where_the_strategy_cannot_play_on_the_first():
    log: list[str] = []
    right_on_either(games(log), raising_on(), never_wrong)
    assert log == ["instructor"]
    log.clear()
    judged: list[str] = []
    right_on_either(games(log), raising_on("instructor"), judged.append)
    assert log == ["instructor", "own"] and judged == ["move on the own game"]
    log.clear()
    unplayable = raising_on("instructor", error=lambda text: Unplayable(text, {}))
    right_on_either(games(log), unplayable, never_wrong)
    assert log == ["instructor", "own"]


def test_a_wrong_move_on_the_instructors_game_is_final():
    log: list[str] = []

    def wrong(answer):
        raise Mismatch(f"a losing {answer}", {"kind": "x"})

    with pytest.raises(Mismatch) as raised:
        right_on_either(games(log), raising_on(), wrong)
    assert log == ["instructor"] and raised.value.message == "a losing move on the instructor game"


def test_one_failure_says_where_the_strategy_played():
    with pytest.raises(StudentError) as raised:
        right_on_either(games([]), raising_on("instructor", "own"), never_wrong,
                        own="your own TippyGameState")
    assert raised.value.message == ("`minimax_move` raised TypeError on the instructor game (on "
                                    "the instructor's game, and on your own TippyGameState)")
    assert str(raised.value) == raised.value.message

    def wrong_on_own(answer):
        assert answer == "a best move", f"chose a {answer}"

    with pytest.raises(AssertionError) as plain:
        right_on_either(games([]), raising_on("instructor"), wrong_on_own, own="yours")
    assert str(plain.value).startswith(
        "chose a move on the own game (on yours: on the instructor's it could not play)\n")


def test_a_timeout_is_final_on_either_game():
    log: list[str] = []
    with pytest.raises(StudentTimeout):
        right_on_either(games(log), raising_on("instructor", error=StudentTimeout), never_wrong)
    assert log == ["instructor"]
    with pytest.raises(StudentError, match="on the instructor game"):
        right_on_either(games([]), lambda game: raising_on("instructor")(game)
                        if game == "instructor" else raising_on("own", error=StudentTimeout)(game),
                        never_wrong)
