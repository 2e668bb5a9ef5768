"""The PNT field checks (graders/packs/pnt/checks.py), on made-up runs."""

from __future__ import annotations

import pytest

from graders.pack import get_pack
from graders.packs.pnt.checks import (
    SAMPLE,
    SAMPLE_NAME,
    answered,
    check_field,
    check_format,
    field_ok,
    load_case,
    parse_cases,
    program_name,
    run_case,
)
from graders.sandbox import RunResult
from graders.submissions import Submission
from graders.testing import Mismatch

PACK = get_pack("pnt")
EXPECTED = (
    "Move: 5\nValue: -1.0\nNumber of Nodes Visited: 10\nNumber of Nodes Evaluated: 6\n"
    "Max Depth Reached: 2\nAvg Effective Branching Factor: 2.2\n"
)  # 9/4 = 2.25: a rounding tie


def fake_runner(stdout: str, exit_code: int = 0, timed_out: bool = False, stderr: str = ""):
    """A run_program stand-in that records its calls."""
    calls = []

    def run(argv, stdin="", timeout=None, workspace="student"):
        calls.append(argv)
        return RunResult(argv, stdout, stderr, exit_code, timed_out, False, 0.01)

    run.calls = calls
    return run


def graded(stdout: str, **kwargs):
    return run_case(SAMPLE_NAME, SAMPLE, EXPECTED, PACK, fake_runner(stdout, **kwargs))


def test_both_roundings_of_a_branching_tie_pass():
    for shown in ("2.2", "2.3"):
        assert field_ok(graded(EXPECTED.replace("2.2", shown)), "branching")
    assert not field_ok(graded(EXPECTED.replace("2.2", "2.4")), "branching")


def test_a_counting_slip_is_not_charged_again_by_the_branching_factor():
    """Root counted twice: 11 visited, so (11 - 1) / (11 - 6) = 2.0 is the formula done
    right on the program's own counts; the counts' test charges the slip."""
    own = graded(EXPECTED.replace("Visited: 10", "Visited: 11").replace("2.2", "2.0"))
    assert field_ok(own, "branching") and not field_ok(own, "visited")
    assert not field_ok(graded(EXPECTED.replace("Visited: 10", "Visited: 11")
                               .replace("2.2", "2.9")), "branching")
    # counts with nothing expanded, or no counts at all, vouch for nothing
    flat = EXPECTED.replace("Visited: 10", "Visited: 6").replace("2.2", "0.0")
    assert not field_ok(graded(flat), "branching")
    bare = "Move: 5\nValue: -1.0\nAvg Effective Branching Factor: 2.0\n"
    assert not field_ok(graded(bare), "branching")
    nothing = EXPECTED.replace("Visited: 10", "Visited: 1").replace("Evaluated: 6",
                                                                     "Evaluated: 0")
    assert not field_ok(graded(nothing.replace("2.2", "0.0")), "branching")
    made_up = EXPECTED.replace("Visited: 10", "Visited: 1000").replace("Evaluated: 6",
                                                                        "Evaluated: 1")
    wrong_search = made_up.replace("Move: 5", "Move: 3").replace("-1.0", "1.0")
    assert not field_ok(graded(wrong_search.replace("2.2", "1.0")), "branching")


def test_wrong_count_names_field_and_shows_every_row():
    result = graded(EXPECTED.replace("Visited: 10", "Visited: 11"))
    check_field(result, "move")
    check_field(result, "value")
    with pytest.raises(Mismatch) as caught:
        check_field(result, "visited")
    assert caught.value.message == "case sample: Number of Nodes Visited: expected 10, got 11"
    details = caught.value.details
    assert [row["ok"] for row in details["rows"]] == [True, True, False, True, True, True]
    assert details["input"] == "python3 pnt.py 7 3 1 4 2 3"


def test_two_decimals_pass_the_values_and_fail_the_format():
    result = graded(EXPECTED.replace("-1.0", "-1.00").replace("2.2", "2.25"))
    check_field(result, "value")
    check_field(result, "branching")
    with pytest.raises(Mismatch, match="expected one decimal place, got '-1.00'"):
        check_format(result)


def test_tolerated_layout_passes_the_format():
    check_format(graded(EXPECTED.replace("Move: 5", "Move: 5 ").rstrip("\n")))


def test_crash_fails_every_check_and_names_the_error():
    result = graded("", exit_code=1, stderr="Traceback...\nIndexError: list index out of range\n")
    for check in (lambda: check_field(result, "move"), lambda: check_format(result)):
        with pytest.raises(Mismatch, match="exited with status 1: IndexError"):
            check()


def test_output_before_a_timeout_is_still_shown():
    result = graded(EXPECTED, timed_out=True, exit_code=None)
    with pytest.raises(Mismatch) as caught:
        check_field(result, "move")
    assert "did not finish within 10 s" in caught.value.message
    assert caught.value.details["stdout"] == EXPECTED


def test_public_cases_never_read_golden_files():
    def no_golden(name: str) -> str:
        raise AssertionError(f"read golden {name}")

    for name in ("input1", "input2", "input3", "sample"):
        _, text = load_case(name, PACK, PACK.template_text, no_golden)
        assert text.startswith("Move: ")
    position, _ = load_case("input3", PACK, PACK.template_text, no_golden)
    assert position.taken == (4, 2, 6)


def test_hidden_cases_read_their_golden_file():
    asked = []
    position, text = load_case(
        "extra1", PACK, PACK.template_text, lambda name: asked.append(name) or EXPECTED
    )
    assert asked == ["extra1.txt"] and position.argv() == ["7", "1", "3", "2"]


def test_command_names_the_program_as_handed_in():
    result = run_case("s", SAMPLE, EXPECTED, PACK, fake_runner(EXPECTED), program="Main.py")
    assert result.command == "python3 Main.py 7 3 1 4 2 3"
    assert result.run.argv == ["python3", "pnt.py", "7", "3", "1", "4", "2", "3"]


def test_program_name_follows_the_alias(tmp_path):
    named = Submission("a", tmp_path, tmp_path)
    assert program_name(named) == "pnt.py"
    named.aliases["pnt.py"] = "472-Code3/Main.py"
    assert program_name(named) == "Main.py"


def other_case(stdout: str):
    return run_case("input2", parse_cases("input2: 7 1 1 2")["input2"], OTHER, PACK,
                    fake_runner(stdout))


OTHER = (
    "Move: 5\nValue: -1.0\nNumber of Nodes Visited: 12\nNumber of Nodes Evaluated: 7\n"
    "Max Depth Reached: 2\nAvg Effective Branching Factor: 2.2\n"
)


def test_the_same_output_for_another_position_fails_whole():
    sample = graded(EXPECTED)
    constant = answered(other_case(EXPECTED), sample)
    assert constant.problem and "not an answer to this position" in constant.problem
    with pytest.raises(Mismatch, match="handout's sample"):
        check_field(constant, "move")  # right by chance: 5 is input2's move too
    with pytest.raises(Mismatch):
        check_format(constant)


def test_real_answers_are_left_alone():
    sample = graded(EXPECTED)
    right = answered(other_case(OTHER), sample)
    assert right.problem is None
    for name in ("move", "value", "visited"):
        check_field(right, name)
    assert answered(sample, sample) is sample
    crashed = graded("", exit_code=1)
    assert answered(other_case(""), crashed).problem is None  # nothing printed: no verdict


def test_traceback_names_the_program_as_handed_in():
    stderr = 'Traceback:\n  File "/sandbox/pnt.py", line 3, in <module>\n    import Game\n'
    runner = fake_runner("", exit_code=1, stderr=stderr + "ModuleNotFoundError: Game\n")
    result = run_case("s", SAMPLE, EXPECTED, PACK, runner, program="Main.py")
    with pytest.raises(Mismatch) as caught:
        check_format(result)
    shown = caught.value.details["stderr"]
    assert 'File "/sandbox/Main.py", line 3' in shown and "pnt.py" not in shown


def test_a_format_failure_names_its_kind_of_slip():
    with pytest.raises(Mismatch) as caught:
        check_format(graded(EXPECTED + "Execution time: 0.0123 seconds\n"))
    assert caught.value.causes == {"extra-line-after": "an extra line after the output"}
    with pytest.raises(Mismatch) as crashed:
        check_format(graded(EXPECTED, exit_code=1, stderr="Traceback...\nValueError\n"))
    assert crashed.value.causes == {}  # a run that failed is no slip of the layout


def test_the_format_criterion_weighs_an_extra_line_once():
    [criterion] = [c for c in PACK.declaration.criteria if c.id == "format"]
    assert 0 < criterion.causes["extra-line-after"] < criterion.points
