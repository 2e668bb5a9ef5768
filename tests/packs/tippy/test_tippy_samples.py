"""tippy: checks on the graded samples beyond tests/packs/test_every_pack.py."""

from __future__ import annotations

import pytest

from graders.packs.tippy import checks
from graders.testing import Mismatch


@pytest.fixture(scope="module")
def results(sample_results):
    return sample_results("tippy")


def test_the_late_sample_names_its_lateness(results):
    [late] = [d for d in results["late_2h10"].deductions if "late" in d.reason]
    assert late.reason.startswith("late by 2 h 10 min: 3 started hour(s) x 5%")
    assert late.points == 15.0


def test_failures_explain_themselves(results):
    messages = {t.name: t.message for t in results["minimax_worst"].tests
                if t.outcome == "failed"}
    assert "guarantees only" in messages["test_minimax_plays_an_optimal_move"]
    diff = [t for t in results["only_horizontal"].tests
            if t.name == "test_state_agrees_with_reference"][0]
    assert "(vs the reference)" in diff.message
    changed = [v for v in results["game_view_rewritten"].violations if v.rule == "changed-lines"]
    assert any("allows at most 11" in v.message for v in changed)


REAL_STYLE = ["squares_lists", "dict_board_starter_kept", "board_module", "move_coords_in_repr",
              "minimax_memo_helper", "renamed_classes_helpers", "renamed_in_pinned_files"]


def test_real_style_samples_get_full_marks_and_do_nothing_at_most_a_tenth(results):
    for name in REAL_STYLE:
        assert results[name].total == 100.0, name
    assert results["pep8_dozens"].total >= 95.0
    assert results["do_nothing"].total <= 10.0


def test_pep8_deducts_per_distinct_code_in_helpers_too(results):
    kinds = {(v.file, v.kind) for v in results["pep8_dozens"].violations if v.rule == "pep8"}
    assert {kind for _, kind in kinds} == {"E231", "E225", "E501"}
    assert ("tippy_board.py", "E231") in kinds
    [pep8] = [m for m in results["pep8_dozens"].criteria if m.id == "pep8"]
    assert pep8.earned == 2.0


def test_classes_wired_nowhere_are_found_as_the_one_subclass_of_the_handouts_base(results):
    unhooked = results["unhooked_renamed"]
    failed = {t.name for t in unhooked.tests if t.outcome == "failed"}
    assert failed == {"test_game_view_offers_tippy_and_minimax",
                      "test_game_view_still_offers_subtract_square_and_random"}
    assert all("ClassNotFound" not in t.message for t in unhooked.tests)


def test_a_pinned_class_in_a_misnamed_file_is_graded_with_the_file_name_deduction(results):
    misnamed = results["state_in_misnamed_file"]
    [problem] = [v for v in misnamed.violations if v.rule == "file-name"]
    assert problem.deduction == 5.0 and problem.file == "tippy_square_state.py"
    assert "was graded as `tippy_game_state.py`: it holds `TippyGameState`" in problem.message
    assert misnamed.aliases == {"tippy_game_state.py": "tippy_square_state.py"}
    assert not any(v.rule == "missing-file" for v in misnamed.violations)


def test_entry_name_notices_say_what_the_menus_name_at_no_cost(results):
    for name in ("renamed_classes_helpers", "renamed_in_pinned_files"):
        notices = [v for v in results[name].violations if v.rule == "entry-name"]
        assert sorted(v.message.split("; ")[0] for v in notices) == [
            "Line 60: `game_state['t']` names `TippyState`",
            "Line 61: `strategy['m']` names `MinimaxStrategy`"], name
        assert all(v.deduction == 0 for v in notices)
    missing = [v.message for v in results["unhooked_renamed"].violations
               if v.rule == "entry-name"]
    assert len(missing) == 2 and all("is not in game_view.py" in m for m in missing)
    assert not any(v.rule == "entry-name" for v in results["correct"].violations)


def test_moves_after_the_end_are_one_slip_seen_by_one_test_and_charged_once(results):
    """Every other test stops at the end of the game; the end-of-game test's cases name one
    cause, which the state criterion charges once (3 points), not per case or per test."""
    result = results["moves_after_end"]
    failed = [t for t in result.tests if t.outcome == "failed"]
    assert {t.name for t in failed} == {"test_state_offers_no_move_once_the_game_is_over"}
    assert len(failed) == 4 and all(set(t.causes) == {"moves-after-end"} for t in failed)
    assert "possible_next_moves() offered" in failed[0].message
    [state] = [m for m in result.criteria if m.id == "state"]
    [charge] = state.causes
    assert (charge.kind, charge.points, len(charge.places)) == ("moves-after-end", 3.0, 4)
    assert state.earned == 42.0 and result.total == 97.0


def test_over_alone_out_of_step_is_one_slip_charged_once_across_four_tests(results):
    """`over` never set on a tippy, every other answer right: each test of a finished game
    names the one cause, which the state criterion charges once."""
    result = results["over_not_set_on_a_win"]
    failed = [t for t in result.tests if t.outcome == "failed"]
    assert len({t.name for t in failed}) == 4
    assert all(set(t.causes) == {"over-flag"} for t in failed), [t.causes for t in failed]
    assert all("`over`" in t.message or "['over']" in t.message for t in failed)
    [state] = [m for m in result.criteria if m.id == "state"]
    [charge] = state.causes
    assert (charge.kind, charge.points, len(charge.places)) == ("over-flag", 3.0, len(failed))
    # a game whose wins go unseen is not the `over` slip: its own tests take their shares
    assert not any("over-flag" in t.causes for name in ("only_horizontal", "l_shape_wins")
                   for t in results[name].tests)
    # a full board's failure says after which moves, not "after (no move)"
    [tie] = [t for t in results["no_tie"].tests if t.name == "test_state_tie_on_a_full_board"
             and t.case == "3"]
    assert "(no move)" not in tie.message and "X(" in tie.message


def test_a_game_that_plays_on_after_a_tippy_is_not_the_over_slip():
    """`over` never set and moves still offered after a win: the game does not end, which
    is more than one slip; no failure names the over-flag cause."""
    won = {"over": True, "winner": {"p1": True, "p2": False}}
    seen = {"over": False, "winner": {"p1": True, "p2": False}}
    with pytest.raises(Mismatch) as ended:
        checks._equal(seen, won, "w", checks._over_alone([(seen, won)], [False]))
    assert ended.value.causes == checks.OVER_FLAG
    with pytest.raises(Mismatch) as goes_on:
        checks._equal(seen, won, "w", checks._over_alone([(seen, won)], [True]))
    assert goes_on.value.causes == {}
    final = {"over": False, "moves": [[2, 2]]}
    with pytest.raises(Mismatch) as never:
        checks.expect_no_move_after(3, [[0, 0]], final, [])
    assert never.value.causes == {}
