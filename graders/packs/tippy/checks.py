"""What a correct tippy submission answers (from ``oracle``), and the messages that say why not."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graders.errors import StudentError
from graders.kept import made_once
from graders.packs.tippy import oracle
from graders.testing import Mismatch, expect_equal

# The parts of a driver summary a correct game must match exactly.
COMPARED = ("board", "over", "next_player", "winner", "outcome", "moves")
RESULT_KEYS = COMPARED[:-1]
ENDINGS = ("Beat ya!", "Congrats -- you won!!", "We tied...")


def summary(n: int, cells: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The driver summary a correct game gives after ``cells`` (a fresh copy each call)."""
    return _summary(n, tuple((r, c) for r, c in cells))


@made_once
def _summary(n: int, cells: tuple[tuple[int, int], ...]) -> dict[str, Any]:
    board = oracle.replay(n, cells)
    status = oracle.status(board)
    winner = {"p1": status == "p1", "p2": status == "p2"}
    player = "p1" if len(cells) % 2 == 0 else "p2"
    outcome = 0.0 if status in (None, "tie") else 1.0 if winner[player] else -1.0
    return {"board": board, "over": status is not None, "next_player": player,
            "winner": winner, "outcome": outcome,
            "moves": [list(c) for c in oracle.legal_moves(board)]}


def equal(actual: Any, expected: Any, *, what: str) -> None:
    """Fail with a field-by-field diff unless equal (1 == 1.0)."""
    expect_equal(actual, expected, what=what, numbers_loosely=True)


def pick(found: dict[str, Any], keys: Sequence[str] = COMPARED) -> dict[str, Any]:
    """The compared parts of a driver summary."""
    return {key: found.get(key) for key in keys}


def picture(board: Sequence[str] | None) -> str:
    """A board as one line of rows for messages."""
    return " / ".join(board) if board else "(board could not be read)"


def game_text(cells: Sequence[Sequence[int]]) -> str:
    """'X(0,0) O(1,1) X(0,1)' for a move list starting with p1."""
    return " ".join(f"{'XO'[i % 2]}({r},{c})" for i, (r, c) in enumerate(cells)) or "(no move)"


# `over` alone out of step with the game (the starter's GameState: "over: bool -- True once
# the game has ended"), every other answer right: one slip, which the state criterion charges
# once (graders.causes), however many games and tests show it.
OVER_FLAG = {"over-flag": "`over` not set to match the end of the game"}


def expect_steps(got: dict[str, Any], want: list[dict[str, Any]], n: int, cells, what: str = ""):
    """Every summary of a ``play(..., every_step=True)`` answer is the one expected, up to
    the end of the game: once it is over, the moves still offered are the end-of-game test's
    to judge (``test_state_offers_no_move_once_the_game_is_over``), not every game's."""
    assert got["stopped"] is None, f"could not play {game_text(cells)}: {got['stopped']}"
    steps = [*got["steps"], got["final"]]
    pairs = []
    for i, expected in enumerate(want):
        keys = RESULT_KEYS if expected["over"] else COMPARED
        pairs.append((pick(steps[i] if i < len(steps) else {}, keys), pick(expected, keys)))
    offered = [bool(steps[i].get("moves")) if i < len(steps) else False
               for i in range(len(pairs))]
    for i, (actual, expected) in enumerate(pairs):
        played = cells if len(want) == 1 else cells[:i]  # one summary: the game's end
        _equal(actual, expected, f"{n} x {n} after {game_text(played)}{what}",
               _over_alone(pairs, offered))


def _over_alone(pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]],
                offered: Sequence[bool]) -> bool:
    """Whether the answers that differ from the expected ones differ in `over` alone, and
    the game offers no move once it is over (``offered``: whether each answer's state still
    offers moves): a game that plays on after a tippy is more than the one slip."""
    wrong = [(got, want, more) for (got, want), more in zip(pairs, offered, strict=True)
             if got != want]
    return bool(wrong) and all(
        {key for key in want if got.get(key) != want[key]} == {"over"}
        and not (want["over"] and more) for got, want, more in wrong)


def _equal(actual: Any, expected: Any, what: str, over_alone: bool) -> None:
    """:func:`equal`, the failure naming the `over` slip where that is all that is wrong."""
    try:
        equal(actual, expected, what=what)
    except Mismatch as failed:
        if not over_alone:
            raise
        raise Mismatch(failed.message, failed.details, OVER_FLAG) from None


# The kind of difference the end-of-game test names (graders.causes): the state criterion
# charges it once, however many sizes show it.
AFTER_THE_END = {"moves-after-end": "moves offered or accepted after the game is over"}


def expect_no_move_after(n: int, cells, final: dict[str, Any], tries: list[dict]) -> None:
    """Once ``cells`` has won the game (``final``: the student's summary after them), no move
    is offered (``possible_next_moves()`` is empty) and ``apply_move`` refuses an opening
    move on every square left empty (``tries``: ``replay_taken(..., after_end=True)``)."""
    played = f"after {game_text(cells)} ({'XO'[(len(cells) - 1) % 2]} has won)"
    taken = [list(cell) for cell in cells]
    accepted = [tuple(r["cell"]) for r in tries
                if list(r["cell"]) not in taken and not r["returned_none"]]
    over = final["over"] is True
    if over and not final["moves"] and not accepted:
        return
    offered = [tuple(cell) for cell in final["moves"]]
    said, changes, kinds = [], [], {}
    if not over:
        said.append(f"`over` is {final['over']!r}")
        changes.append({"path": "over", "expected": "True", "got": repr(final["over"])})
        kinds.update(OVER_FLAG if not offered and not accepted else {})
    if offered or accepted:
        said.append(f"possible_next_moves() offered {len(offered)} square(s) {offered[:6]} and "
                    f"apply_move accepted {len(accepted)} move(s) on empty squares "
                    f"{accepted[:6]}")
        changes += [{"path": "possible_next_moves()", "expected": "[]", "got": str(offered)},
                    {"path": "apply_move accepted", "expected": "[]", "got": str(accepted)}]
        kinds.update(AFTER_THE_END if over else {})  # a game that never ends: no one slip
    raise Mismatch(
        f"{played}, the game is over, so `over` is True and no move is available: "
        + "; ".join(said),
        {"kind": "deepdiff", "what": f"{n} x {n} {played}", "expected": "over, no move",
         "actual": "; ".join(said), "changes": changes}, kinds)


def expect_games(results: list[dict], games: list, n: int, keys=RESULT_KEYS, names=None) -> None:
    """Each game's summary (``play_many``) is the rules' one, never ``stopped``; the first
    wrong game is shown, and how many are wrong."""
    def seen(got):
        return dict(pick(got, keys), stopped=got.get("stopped"))
    want = [dict(pick(summary(n, cells), keys), stopped=None) for cells in games]
    pairs = [(seen(got), want[i]) for i, got in enumerate(results)]
    wrong = [i for i, (got, expected) in enumerate(pairs) if got != expected]
    if wrong:
        i = wrong[0]
        _equal(*pairs[i], f"{len(wrong)} of {len(games)} games on {n} x {n} are wrong; first: "
               f"{names[i] + ', ' if names else ''}after {game_text(games[i])}, board "
               f"{picture(summary(n, games[i])['board'])}",
               _over_alone(pairs, [bool(got.get("offers_moves")) for got in results]))


def describe(position: dict[str, Any]) -> str:
    """A minimax position for messages."""
    n = len(position["board"])
    return (f"{n} x {n} board {picture(position['board'])}, {position['player']} "
            f"({oracle.MARK_OF[position['player']]}) to move")


# A game as large as 3 x 3 whatever size is typed (the driver says so): the state criterion's
# tests charge it; the TippyMove tests on larger grids can tell nothing else, and list it.
SIZE_IGNORED = {"size-ignored": "the size typed at the game's prompt is not used"}
SIZE_IGNORED_WORDS = "typed at its size prompt offers"


def opening_moves(worker: Any, n: int) -> dict[str, Any]:
    """``move_facts`` for n, after checking the moves stand for every square once."""
    try:
        got = worker.call("move_facts", n)
    except StudentError as raised:
        if SIZE_IGNORED_WORDS in str(raised):
            raised.causes = dict(SIZE_IGNORED)  # type: ignore[attr-defined]
        raise
    label = "moves that mark no single new square"
    equal({"squares": got["cells"], label: got["odd_moves"]},
          {"squares": [[r, c] for r in range(n) for c in range(n)], label: []},
          what=f"possible_next_moves() of a new {n} x {n} game (squares told by {got['how']})")
    return got


def game_view_lines(got: dict[str, Any], what: str) -> list[str]:
    """The transcript of a ``run_game_view`` that ended with one of the starter's messages."""
    lines = got["transcript"].strip().splitlines()
    tail = "\n".join(lines[-6:])
    assert got["error"] is None, f"{what}: game_view.py stopped with {got['error']}; its " \
        f"last lines:\n{tail}"
    assert lines and lines[-1] in ENDINGS, f"{what}: the game did not end with one of the " \
        f"starter's messages {ENDINGS}; its last lines:\n{tail}"
    return lines


def offers_tippy_and_minimax(worker: Any) -> None:
    """Answering t, then m plays the student's tippy against StrategyMinimax (every game_view
    case needs it: the rest earns nothing for a file that does not hook the game up)."""
    got = worker.call("run_game_view", ["t", "m", ""])
    game_view_lines(got, "answering t (tippy), then m (minimax)")
    assert got["tippy_moves"] > 0, "answering t did not start a game of your TippyGameState"
    assert got["minimax_calls"] > 0, "answering m did not make the computer use StrategyMinimax"
