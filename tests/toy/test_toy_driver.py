"""The toy pack's driver in process (tests/in_process.py): the self-test a pack author writes
first, on the handout's examples, in milliseconds and without a sandbox."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from graders.pack import get_pack
from tests.in_process import driver_on, workspace

PACK = get_pack("subtract_square", Path(__file__).resolve().parent)
SAMPLES = PACK.fixtures_dir / "submissions"


def test_the_reference_answers_the_handouts_examples(load_driver):
    driver = load_driver(PACK.reference_dir)
    assert driver.moves(17) == [16, 9, 4, 1]
    assert (driver.apply(17, 16), driver.apply(17, 2)) == (1, None)
    assert (driver.winner(0, "p1"), driver.best_move(13)) == ("p2", 1)


def test_a_sample_is_loaded_as_handed_in_and_the_template_as_given(load_driver):
    assert load_driver(SAMPLES / "moves_ascending").moves(17) == [1, 4, 9, 16]
    with pytest.raises(NotImplementedError):
        load_driver(PACK.templates_dir).moves(17)


def test_nothing_of_a_workspace_outlives_it(tmp_path):
    folder = workspace(PACK, tmp_path, PACK.reference_dir)
    before = sys.modules.get("subtract_square")  # another test's, if any: put back afterwards
    with driver_on(PACK, folder) as driver:
        assert driver.is_over(0) and sys.modules["subtract_square"] is not before
    assert sys.modules.get("subtract_square") is before and "grader_driver" not in sys.modules
    assert str(folder) not in sys.path and Path.cwd() != folder
