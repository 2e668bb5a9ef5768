"""``harness_kit.snapshot``: a student's state read field by field (an attribute, a method to
call, a function), each field's error its own, so one broken method costs only its field."""

from __future__ import annotations

from graders.sandbox.harness_kit import scalar, snapshot


class Position:
    """A student's state whose ``outcome()`` is broken."""

    over = False

    def outcome(self):
        raise ValueError("no outcome yet")

    def moves(self):
        return [(0, 1)]


def test_attributes_methods_and_functions_are_read_each_on_its_own():
    snap = snapshot({"over": "over", "moves": "moves()", "text": repr,
                     "outcome": "outcome()", "missing": "next_player"}, Position())
    assert snap["over"] is False and snap["moves"] == [(0, 1)]
    assert snap["text"].startswith("<") and "Position object" in snap["text"]
    assert snap["outcome"] == {"error": snap["outcome"]["error"]}
    assert snap["outcome"]["error"].startswith("ValueError: no outcome yet (")
    assert snap["missing"]["error"].startswith("AttributeError: ")


def test_functions_get_every_argument_and_values_are_converted():
    snap = snapshot({"both": lambda game, state: (game, state.over)}, "game", Position(),
                    convert=scalar)
    assert snap == {"both": "<tuple> ('game', False)"}
