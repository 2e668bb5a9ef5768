"""What a correct game_of_nim submission answers, and the messages that say why not (parent side).

Expectations come from the pack's oracle, or from the reference's worker (differential tests).
Player labels are the submission's own: turns are judged by who moved first, utilities from the
first player's side only."""

from __future__ import annotations

from typing import Any

from graders.errors import StudentError
from graders.pack import Pack
from graders.packs.game_of_nim.oracle import board_after, first_player_wins, legal_moves
from graders.testing import Mismatch, expect_equal

TRANSCRIPT = "handout.transcript"
# The kind of difference a transcript shows when the moves are only listed in another order:
# the order criterion charges it; the transcript criterion lists it (`free_kinds`).
MOVE_ORDER = "move-order"
MOVE_ORDER_WORDS = "the moves listed in another order than the handout's"
PROBE = {"misere": [0, 2], "normal": [0, 1]}  # alpha-beta's only winning move from [2, 1]


# Finished games in pairs: (board, the moves that empty it), the first player taking the last
# object in one game and not in the other, so it wins one and loses the other whatever the
# rule. A case is right only if both are: a constant utility earns nothing (no vacuous credit).
FINISHED = [(([0, 3, 0], [[1, 3]]), ([1, 1], [[0, 1], [1, 1]])),
            (([1, 1, 1], [[0, 1], [1, 1], [2, 1]]), ([2, 0, 1], [[0, 2], [2, 1]])),
            (([2, 2], [[0, 2], [1, 1], [1, 1]]), ([7, 5, 3, 1], [[0, 7], [1, 5], [2, 3], [3, 1]]))]


def case_id(case: Any) -> str:
    """A short test id: ``[0,5,3,1]`` (a board), ``[2,1]+2moves`` (a board and a path), or two
    positions joined by ``/``."""
    if isinstance(case, list):
        return "[" + ",".join(map(str, case)) + "]"
    if isinstance(case[0], tuple):
        return "/".join(map(case_id, case))
    return f"{case_id(case[0])}+{len(case[1])}moves"


def game_text(board: list[int], path: list[list[int]]) -> str:
    """How a position is named in messages: ``GameOfNim([2, 1]) after moves (0, 1)``."""
    moves = ", ".join(f"({r}, {n})" for r, n in path)
    return f"GameOfNim({board})" + (f" after moves {moves}" if path else "")


def call(worker: Any, pack: Pack, op: str, *args: Any) -> Any:
    """Driver operation ``op`` under the pack's rule (``[limits] call_seconds`` holds)."""
    return worker.call(op, *args, pack.settings["rule"])


def handout_game(pack: Pack) -> tuple[list[int], list[str], str]:
    """The handout's game as the golden transcript's run plays it: the board (the arguments
    after the rule), what the human types (its stdin) and the rule."""
    [run] = pack.declaration.golden_spec(TRANSCRIPT).runs
    return [int(size) for size in run.argv[4:]], run.stdin.split(), run.argv[3]


def fail(message: str, what: str, field: str, expected: Any, got: Any) -> None:
    """Raise a Mismatch whose report shows the one field that is wrong."""
    row = {"field": field, "expected": expected, "got": got, "ok": False}
    raise Mismatch(message, {"kind": "fields", "what": what, "rows": [row]})


def field(state: dict, name: str, where: str) -> Any:
    """Field ``name`` of a driver summary, or the student's error there as their failure."""
    value = state[name]
    if isinstance(value, dict) and set(value) == {"error"}:
        raise StudentError(f"{where}: asking for its {name} raised {value['error']}")
    return value


def expect_state(state: dict, board: list[int], path: list[list[int]], why: str) -> None:
    """The state reached by ``path`` has the right board and legal moves (in any order)."""
    expected = board_after(board, path)
    where = f"the state of {game_text(board, path)}"
    expect_equal({"board": field(state, "board", where),
                  "moves (any order)": sorted(field(state, "moves", where))},
                 {"board": expected, "moves (any order)": legal_moves(expected)},
                 what=f"{where} ({why})")


def expect_tuples(out: dict, board: list[int], path: list[list[int]]) -> None:
    """The initial state and the one after ``path`` list right moves, as tuples."""
    for where, state, reached_by in (("the initial state", out["initial"], []),
                                     ("the state after (2, 1)", out["steps"][0], path)):
        expect_state(state, board, reached_by, "only right moves are checked for type")
        if not field(state, "tuple_moves", where):
            fail(f"the moves of {where} are not 2-tuples: the handout asks for moves like "
                 "(1, 2), not [1, 2] (only this criterion is affected)",
                 "move type", where, "tuples", "not tuples")


def expect_alternating(out: dict, board: list[int], path: list[list[int]]) -> None:
    """The player to move changes after every move, between two labels."""
    where = f"{game_text(board, path)}, the player to move"
    turns = [field(state, "to_move", where) for state in [out["initial"], *out["steps"]]]
    second = next((t for t in turns if t != turns[0]), None)
    if second is None or turns != [(turns[0], second)[i % 2] for i in range(len(turns))]:
        fail(f"{game_text(board, path)}: the player to move should alternate after each move; "
             f"to_move was {turns}", "to_move before and after each move", "to_move",
             "alternating between two players", turns)


def expect_unchanged_input(steps: list[dict], board: list[int], path: list[list[int]]) -> None:
    """result() leaves its input state alone, and returns the right new state."""
    for index, step in enumerate(steps):
        if step["input_mutated"]:
            fail(f"result(state, ({path[index][0]}, {path[index][1]})) changed the state it was "
                 f"given: its board went from {step['input_before']} to {step['input_after']}. "
                 "Copy the board and return a NEW GameState: the search still needs the old one.",
                 "the input state after result()", "board", step["input_before"],
                 step["input_after"])
        expect_state(step, board, path[: index + 1], "an unchanged input earns this share only "
                     "where result() also returns the right new state")


def expect_utility(out: dict, board: list[int], path: list[list[int]], rule: str) -> None:
    """utility(finished state, first player) is +1 when the first player won, else -1."""
    first, value = out["player"], out["value"]
    wins = first_player_wins(len(path), rule)
    sign = "+1" if wins else "-1"
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if number and value == int(sign):
        return
    alias = "" if first == "MAX" else ", the handout's MAX"
    story = (f"{game_text(board, path)}: the {'first' if len(path) % 2 else 'second'} player took "
             f"the last object, so under the {rule} rule the first player ({first!r}{alias}) "
             f"{'wins' if wins else 'loses'}")
    problem = (f"{story}: utility(state, {first!r}) should be {sign} (the handout: +1 if MAX "
               f"wins, -1 if MIN wins), got {value}" if number else
               f"{story}, but utility(state, {first!r}) returned {value!r}, not a number")
    fail(problem, "utility for the first player", f"utility(state, {first!r})", sign, value)


def expect_probe(got: Any, rule: str) -> None:
    """Alpha-beta from [2, 1] plays the only winning move of the handout's rule."""
    if got == PROBE[rule]:
        return
    message = (f"alpha-beta on GameOfNim([2, 1]), first player to move, played {got}; under the "
               f"handout's {rule} rule it must play {PROBE[rule]}")
    other = next(name for name in PROBE if name != rule)
    if got == PROBE[other]:
        message += (f" ({got} is the winning move under the {other} rule: check who "
                    "utility() says has won, and whose turn result() gives)")
    fail(message, "alpha-beta's move from [2, 1]", "move", PROBE[rule], got)


def play_view(worker: Any, pack: Pack, board: list[int], path: list[list[int]]) -> list[dict]:
    """Each state of the game as the grader compares it: board, moves in any order, and whose
    turn it is (first or second player, whatever the labels); the last says if play is over."""
    out = call(worker, pack, "play", board, path)
    states = [out["initial"], *out["steps"]]
    where = f"a state of {game_text(board, path)}"
    view = [{"board": s["board"], "moves (any order)": sorted(field(s, "moves", where)),
             "to move": "first player" if s["to_move"] == states[0]["to_move"] else
             "second player"} for s in states]
    view[-1]["game over"] = call(worker, pack, "terminal", board, path)
    return view


def expect_optimal(got: Any, values: list, board: list[int], path: list[list[int]]) -> None:
    """``got`` is one of the moves of ``values`` (``[move, value]`` pairs) with the best value."""
    best = max(value for _, value in values)
    optimal = [move for move, value in values if value == best]
    if got not in optimal:
        outcome = "wins" if best > 0 else "loses whatever it plays"
        fail(f"alpha-beta on your {game_text(board, path)} (first player to move, who {outcome}) "
             f"chose {got}; a best move is one of {optimal}", "alpha-beta's move", "move",
             f"one of {optimal}", got)


def expect_shows_board(displayed: str | None, board: list[int]) -> None:
    """The class's own display() prints something for a state. The replay shows every board
    itself (the display format is not graded), but the handout's main shows them through
    display(): "current state: board: [6, 5, 3, 1]". The default Game.display passes."""
    if not (displayed and displayed.strip()):
        fail(f"display(state) printed nothing for GameOfNim({board}).initial: the handout's main "
             'shows every board through it ("current state: board: [6, 5, 3, 1]"); print the '
             "board, or keep the default Game.display", "what display(initial state) printed",
             "display(state)", "the board, in any format",
             "an error" if displayed is None else "nothing")


def notes(out: dict) -> list[str]:
    """What ``compat`` found that the handout does not grade, as notes for the student."""
    found = []
    params, players = out["parameters"] or [], out["labels"] or []
    if params and params[0] != "board":
        found.append(f"the constructor's parameter is named {params[0]!r}, not 'board': the "
                     "grader passed the board positionally")
    if None not in players and len(set(map(str, players))) == 2 and \
            set(players) != {"MAX", "MIN"}:
        found.append(f"the players are called {players}, not ['MAX', 'MIN']: fine, the handout "
                     "allows any two distinct names")
    if out["printed"]:
        found.append(f"your methods print while a game is played (first line: "
                     f"{out['printed'].splitlines()[0][:80]!r}): the grader ignores it, but "
                     "remove debugging output before you hand in")
    return found


def why_stopped(error: str) -> str:
    """Why the replayed handout game ended where it did, in words: the typed answers run out
    when the game goes on past the handout's last move (it did not end when it should have,
    or the computer chose other moves), else the error that ended it early."""
    if "typed answers is used up" in error:
        return ("the game went on after the handout's moves: the human's typed answers ran "
                "out, so it did not end where the handout's game ends")
    return f"the game stopped early: {error}"
