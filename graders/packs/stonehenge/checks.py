"""Parent-side expectations of the stonehenge grader tests: what the driver's snapshots must
say (from the oracle), the token-wise view of boards, what rough_outcome must be, and the
wording of failures in the player's terms."""

from __future__ import annotations

from functools import cache
from typing import Any

from graders.errors import StudentError, StudentFault
from graders.packs.stonehenge import oracle
from graders.testing import Mismatch, expect_equal, expect_text

# What oracle.tokens reads as one token: the report marks the differing tokens on the boards.
BOARD_TOKEN = r"[A-Za-z0-9@]+"
# Snapshot fields compared as values: how the failure names them, and the oracle's answer.
EXACT = {
    "player": ("get_current_player_name()", lambda view: view["player"]),
    "over": ("is_over(state)", lambda view: bool(view["winner"])),
    "winners": ("is_winner('p1') / is_winner('p2')",
                lambda view: {player: view["winner"] == player for player in ("p1", "p2")}),
}
# Where each slip shows: (side, p1 starts, moves) on which the slip's boards hold lines the
# handout's do not (a game that never captures a line is not the slip's there).
WITNESSES = {"capture-more-than-half": (2, True, "AGDEF"),
             "line-changes-hands": (2, True, "AGDEF")}
SHOWN = ["board", "over", "winners"]  # what shows which rules a game follows
# Moves still offered once the game is over ("If the game is over there are no moves
# available"), by a game that knows it is over: one slip, which the rules criterion charges
# once at its weight (`causes`), however many games end that way.
AFTER_THE_END = {"moves-after-end": "moves offered after the game is over"}

# The capture rule's known slips (oracle.SLIPS): a game that follows one throughout is charged
# for it once, by the rules criterion, and not again by every board, ending and winner that
# the slip changes (each test that shows it names it as its cause).
SLIP_WORDS = {
    "capture-more-than-half": "your game captures a ley-line only with MORE than half of its "
                              "cells (the handout: at least half)",
    "line-changes-hands": "your game lets a captured ley-line change hands (the handout: once "
                          "claimed, it cannot be taken by the other player)",
}


class AfterTheEnd(AssertionError):
    """get_possible_moves() offered moves where the game is over (see :data:`AFTER_THE_END`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def side_id(case: dict[str, Any]) -> str:
    """A generated case's test id: its board size and, for a graded position, where it comes
    from (``side3-spec``; the index follows)."""
    return f"side{case['side']}" + (f"-{case['from']}" if "from" in case else "")


def position_text(side: int, p1_starts: bool, moves: list[str] | str) -> str:
    """'side 2, p1 first, after A G D' - how a position is named in messages."""
    first = "p1" if p1_starts else "p2"
    played = " ".join(moves) if moves else "no moves"
    return f"side {side}, {first} moves first, after {played}"


def board_lines(board: str) -> str:
    """The graded content of a board: per line, its markers and cells, single-spaced."""
    return "\n".join(" ".join(row) for row in oracle.tokens(board))


def marker_place(side: int, line: str) -> tuple[int, int]:
    """(token row, token index) of the marker of ``line`` in the token view of a board: where
    the handout's layout (the oracle's renderer) puts it."""
    only = oracle.Position(side, True, p1_lines=1 << oracle.geometry(side).line_index(line))
    rows = oracle.tokens(oracle.render(only))
    return next((r, c) for r, row in enumerate(rows) for c, token in enumerate(row)
                if token == "1")


def cells(board: str, side: int) -> list[str]:
    """The cells of a board (letters, 1 or 2) in letter order, markers left out."""
    rows = oracle.tokens(board)[1:side + 2]
    return [cell for i, row in enumerate(rows)
            for cell in (row[1:] if i == side - 1 else row[1:-1])]


def field(snapshot: dict[str, Any], name: str, where: str) -> Any:
    """A snapshot field, or the student's error for it as a failure."""
    if "error" in snapshot and len(snapshot) == 1:
        raise StudentError(f"{where}: making the move raised {snapshot['error']}")
    value = snapshot[name]
    if isinstance(value, dict) and set(value) == {"error"}:
        raise StudentError(f"{where}: {name} raised {value['error']}")
    return value


def expect_trace(worker: Any, side: int, p1_starts: bool, moves: list[str] | str,
                 names: list[str]) -> None:
    """Play ``moves`` with the driver's ``trace`` and check the fields ``names`` of every
    snapshot against the oracle. Where they differ because the game follows one of the capture
    rule's known slips throughout (:func:`slip_shown`), the failure names that slip as its
    cause."""
    moves = list(moves)
    # A game's own `is_over` tells moves offered after its end (one slip) from a game that
    # never ends: asked beside `moves`, checked only where named.
    asked = [*names, "over"] if "moves" in names and "over" not in names else names
    snaps = worker.call("trace", side, p1_starts, moves, asked)
    seen = all_views(side, p1_starts, moves)
    try:
        wrong = _wrong_at(snaps, seen[None], side, p1_starts, moves, names)
    except StudentFault as fault:
        _refused_after_its_end(fault, worker, side, p1_starts, moves, names, snaps, seen)
        raise
    if wrong is None:
        return
    # The test's own answers must be the slip's game's too, as far as that game goes (a
    # difference past its end, where the student's game took the handout's next move anyway,
    # is the slip's): a field that cannot tell the rules apart is no evidence on its own.
    cause = slip_shown(worker, side, p1_starts, moves, seen)
    if cause is not None and _follows(snaps, seen[cause], side, p1_starts, moves, names):
        raise as_slip(wrong[1], cause)
    raise wrong[1]


def _refused_after_its_end(fault: StudentFault, worker: Any, side: int, p1_starts: bool,
                           moves: list[str], names: list[str], snaps: list[dict[str, Any]],
                           seen: dict[str | None, list[dict]]) -> None:
    """Raise ``fault`` as the slip's when it is the move that raised (the trace's last entry),
    after the game of a slip the student's game shows was over (a game that ends sooner under
    its own rule refuses the handout's next move); else return."""
    if set(snaps[-1]) != {"error"}:
        return
    try:  # every field before the failing move was given: the fault is the move's
        _wrong_at(snaps[:-1], seen[None], side, p1_starts, moves, names)
    except StudentFault:
        return
    cause = slip_shown(worker, side, p1_starts, moves, seen)
    if cause is not None and len(seen[cause]) < len(snaps) \
            and _follows(snaps, seen[cause], side, p1_starts, moves, names):
        raise as_slip(fault, cause) from None


def all_views(side: int, p1_starts: bool, moves: list[str]) -> dict[str | None, list[dict]]:
    """The oracle's views of ``moves`` under the handout's rules (key None) and under each
    known slip: asked on every case, whatever the student answers (see ``oracle.views``),
    with the witnesses' (:func:`witness_views`)."""
    witness_views()
    return {rules: oracle.views(side, p1_starts, moves, rules) for rules in (None, *SLIP_WORDS)}


@cache
def witness_views() -> dict[str, list[dict]]:
    """Each slip's views of its witness game (``WITNESSES``)."""
    return {cause: oracle.views(*WITNESSES[cause], cause) for cause in SLIP_WORDS}


def _follows(snaps: list[dict[str, Any]], views: list[dict[str, Any]], side: int,
             p1_starts: bool, moves: list[str], names: list[str]) -> bool:
    """Whether every snapshot the slip's game reaches agrees with it."""
    try:
        return _wrong_at(snaps, views, side, p1_starts, moves, names) is None
    except StudentFault:
        return False


def _wrong_at(snaps: list[dict[str, Any]], views: list[dict[str, Any]], side: int,
              p1_starts: bool, moves: list[str], names: list[str]
              ) -> tuple[int, AssertionError] | None:
    """The first snapshot whose fields ``names`` differ from the oracle's ``views`` and why,
    or None. A field the student's code failed to give raises (not a difference of rules).
    Moves offered once the game is over, where the game itself says it is over and every
    other field named is right, are that one slip (:data:`AFTER_THE_END`)."""
    for count, (snap, view) in enumerate(zip(snaps, views, strict=False)):
        where = position_text(side, p1_starts, moves[:count])
        after_the_end = None
        for name in names:
            value = field(snap, name, where)
            if name == "over" and not view["winner"] and not view["moves"]:
                continue  # a full board nobody won (a slip's game only): over or not, both fit
            try:
                _expect_field(name, value, view, where)
            except AfterTheEnd as failure:
                after_the_end = failure
            except AssertionError as failure:
                return count, failure
        if after_the_end is not None:
            own_end = snap.get("over") is True
            return count, (Mismatch(after_the_end.message, {}, AFTER_THE_END) if own_end
                           else AssertionError(after_the_end.message))
    return None


def _expect_field(name: str, value: Any, view: dict[str, Any], where: str) -> None:
    """One snapshot field against the oracle's view of the position."""
    if name == "board":
        expect_board(value, view["board"], where)
    elif name == "moves":
        expect_moves(value, view, where)
    elif name == "rough":
        expect_rough(value, view, where)
    else:
        words, answer = EXACT[name]
        expect_equal(value, answer(view), what=f"{words}, {where}", numbers_loosely=True)


def as_slip(failure: AssertionError, cause: str) -> Mismatch:
    """``failure`` as a difference that the capture-rule slip ``cause`` explains."""
    message = getattr(failure, "message", None) or str(failure)
    # The slip's own words travel as the cause, which the report and the pre-check show once.
    return Mismatch(f"{message}\n(This follows from one slip of the capture rule, charged once "
                    "under the rules criterion.)",
                    dict(getattr(failure, "details", {}) or {}), {cause: SLIP_WORDS[cause]})


def slip_shown(worker: Any, side: int, p1_starts: bool, moves: list[str],
               seen: dict[str | None, list[dict]]) -> str | None:
    """The capture-rule slip the student's game shows: its boards, endings and winners are
    the slip's on its witness game (where the slip captures lines the handout does not, so a
    game that never captures does not pass) and on ``moves`` as far as the slip's game goes;
    else None. ``seen``: the oracle's views of ``moves`` (:func:`all_views`)."""
    snaps = _shown(worker, side, p1_starts, moves)
    for cause in SLIP_WORDS:
        views = seen[cause]
        if snaps is not None and len(snaps) >= len(views) \
                and _follows(snaps, views, side, p1_starts, moves, SHOWN) \
                and shows_on_witness(worker, cause):
            return cause
    return None


def shows_on_witness(worker: Any, cause: str) -> bool:
    """Whether the student's game is the slip's on the slip's witness game."""
    side, p1_starts, moves = WITNESSES[cause]
    snaps = _shown(worker, side, p1_starts, list(moves))
    return snaps is not None and _follows(snaps, witness_views()[cause], side, p1_starts,
                                          list(moves), SHOWN)


def _shown(worker: Any, side: int, p1_starts: bool, moves: list[str]) -> list | None:
    """The student's boards, endings and winners along ``moves``; None where asking failed
    (a timeout or crash there must not stand in for the failure being explained)."""
    try:
        return list(worker.call("trace", side, p1_starts, moves, SHOWN))
    except StudentFault:
        return None


def expect_board(actual: Any, expected: str, where: str) -> None:
    """Compare a board token-wise (markers, cells and their order; not spacing or art) with
    the one the handout draws (``expected``)."""
    if not isinstance(actual, str):
        raise AssertionError(f"{where}: str(state) gave {actual!r}, not a board")
    try:
        expect_text(board_lines(actual), board_lines(expected), mode="rstrip",
                    what=f"board, {where} (markers and cells, token by token)")
    except Mismatch as mismatch:  # the boards as printed, for the report to show
        mismatch.details["boards"] = {"expected": expected, "got": actual,
                                      "token": BOARD_TOKEN}
        raise


def expect_moves(actual: Any, view: dict[str, Any], where: str) -> None:
    """Compare get_possible_moves() as a sorted list of str with the oracle's ``view``,
    saying what went wrong."""
    want, winner = sorted(view["moves"]), view["winner"]
    got = sorted(actual) if isinstance(actual, list) else actual
    if winner and got:
        raise AfterTheEnd(f"{where}: the game is over ({winner} holds at least half of the "
                          f"ley-lines), but get_possible_moves() returned {got}; it must be []")
    if not winner and got == [] and want:
        raise AssertionError(f"{where}: nobody has won yet, but get_possible_moves() returned "
                             f"[]; the free cells are {want}")
    expect_equal(got, want, what=f"get_possible_moves() (sorted), {where}")


def expect_rough(actual: Any, view: dict[str, Any], where: str) -> None:
    """rough_outcome() is an estimate: only what the spec pins is checked (a number in
    [LOSE, WIN], and LOSE once the player to move has lost). Never the instructor's estimate."""
    if not isinstance(actual, int | float) or isinstance(actual, bool) or actual != actual:
        raise AssertionError(f"{where}: rough_outcome() returned {actual}; it must be a number "
                             "between LOSE (-1) and WIN (1)")
    if not oracle.LOSE <= actual <= oracle.WIN:
        raise AssertionError(f"{where}: rough_outcome() returned {actual}, outside [LOSE, WIN] "
                             "= [-1, 1]")
    decided = view["winner"]
    if decided and actual != oracle.LOSE:
        raise AssertionError(
            f"{where}: the game is over ({decided} holds at least half of the ley-lines), so "
            f"{view['player']}, the player to move, has lost: rough_outcome() must be LOSE (-1) "
            f"here, not {actual}")


def expect_marker(student: Any, side: int, p1_starts: bool, moves: str, line: str,
                  rule: str) -> None:
    """The marker of ley-line ``line`` after ``moves`` is the oracle's (``rule`` says why);
    where it is what a known slip of the capture rule gives, the failure names the slip."""
    where = position_text(side, p1_starts, moves)
    board = field(student.call("trace", side, p1_starts, list(moves), ["board"])[-1], "board",
                  where)
    seen = all_views(side, p1_starts, list(moves))
    boards = {rules: views[-1]["board"] for rules, views in seen.items()}
    want = boards.pop(None)
    got, wanted = _marker(str(board), side, line), _marker(want, side, line)
    if got == wanted:
        return
    failure = AssertionError(
        f"{where}: {rule}, so the marker of ley-line {line} must be {wanted!r}; your board "
        f"shows {got!r} there.\nexpected board:\n{want}\nyour board:\n{board}")
    cause = slip_shown(student, side, p1_starts, list(moves), seen)
    # the whole board is the slip's, not one marker
    if cause is not None and board_lines(str(board)) == board_lines(boards[cause]):
        raise as_slip(failure, cause)
    raise failure


def _marker(board: str, side: int, line: str) -> str | None:
    """The token where the handout's layout puts ley-line ``line``'s marker, if any."""
    row, column = marker_place(side, line)
    rows = oracle.tokens(board)
    return rows[row][column] if row < len(rows) and column < len(rows[row]) else None


def expect_cells(board: Any, side: int, moves: str, what: str) -> None:
    """Only the cells: the markers are graded by the board tests and the rule tests."""
    want = cells(oracle.render(oracle.replay(side, True, moves)), side)
    expect_equal(cells(str(board), side), want, what=f"cells of {what}")


def repr_after(student: Any, side: int, p1_starts: bool, moves: list[str] | str) -> Any:
    """The student's repr of the position after ``moves``."""
    snap = student.call("trace", side, p1_starts, list(moves), ["repr"])[-1]
    return field(snap, "repr", position_text(side, p1_starts, moves))


# What driver.play_interface says when the starter's loop asks for a move past the script.
ASKED_MORE = "the game asked for another move after"


def expect_slip_ending(worker: Any, moves: list[str], seen: dict[str | None, list[dict]],
                       failure: AssertionError, played: list[str], over: bool) -> None:
    """The starter's loop on side 2 (p1 first) played ``played`` of ``moves`` and stopped,
    the game ``over`` or not, where the handout's game ends after the last move: raise
    ``failure`` as a slip's where the student's game shows the slip and the slip's game ends
    just so (``seen``: :func:`all_views` of ``moves``); else return."""
    cause = slip_shown(worker, 2, True, moves, seen)
    if cause is not None and len(seen[cause]) == len(played) + 1 \
            and bool(seen[cause][-1]["winner"]) == over:
        raise as_slip(failure, cause) from None
