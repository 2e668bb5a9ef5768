"""Child-side driver for the tippy pack: plays the student's code through the starter API only.

Runs inside the sandbox, stdlib only, never imports ``graders``. Students' constructors and
``get_move`` texts differ, so a game is built as ``TippyGameState('p1', interactive=True)`` with
the size prompt answered by a patched ``input``, and then driven with ``possible_next_moves()``,
``apply_move()``, ``over``, ``next_player``, ``winner()``, ``outcome()`` and
``StrategyMinimax(interactive=False).suggest_move(state)``.

Moves are known by their effect on the board, which ``driver_board.py`` (copied beside this file
into the sandbox) reads; boards are lists of strings: 'X' for p1's mark, 'O' for p2's, '.' for
empty, '?' for anything else. Every public function here is an operation the parent calls by
name; the helpers are imported under private names so they are not operations.
"""

import builtins
import random

from driver_board import cell_changed as _cell_changed
from driver_board import child_of as _child
from driver_board import find_move as _find_move
from driver_board import moves_by_cell as _moves_by_cell
from driver_board import new_game as _new_game
from driver_board import reader_for as _reader_for
from driver_board import safe as _safe
from driver_board import summarize as _summarize


def _replay(n, cells, every_step=False):
    """Mark cells in turn from the start of an n x n game.

    Returns (state, reader, moves used, summaries before each move if every_step, problem),
    where problem is None or {"at": index, "cell": [r, c], "why": text}.
    """
    reader = _reader_for(n)
    state = _new_game(n)
    board = reader.read(state)
    used, steps = [], []
    for i, cell in enumerate(cells):
        if every_step:
            steps.append(_summarize(state, reader))
        found = _find_move(state, reader, cell, board)
        if found is None:
            problem = {"at": i, "cell": list(cell),
                       "why": "no move from possible_next_moves() marks this square"}
            return state, reader, used, steps, problem
        used.append(found[0])
        state, board = found[1], found[2]
    return state, reader, used, steps, None


def play(n, cells, every_step=False):
    """Mark cells in turn on an n x n game; return the final summary (and each earlier one).

    Returns {"final": summary, "steps": [summary before each move] or [], "stopped": None or
    {"at": index, "cell": [r, c], "why": text}}.
    """
    state, reader, _, steps, problem = _replay(n, cells, every_step)
    return {"final": _summarize(state, reader), "steps": steps, "stopped": problem}


def play_many(n, games):
    """Return the final summary (without moves) plus "stopped" for each cell list in games."""
    results = []
    for cells in games:
        state, reader, _, _, problem = _replay(n, cells)
        results.append(dict(_summarize(state, reader, with_moves=False), stopped=problem))
    return results


def rough_outcomes(n, games):
    """Return rough_outcome() of the state after each cell list in games."""
    values = []
    for cells in games:
        state, _, _, _, problem = _replay(n, cells)
        values.append(None if problem else _safe(state.rough_outcome))
    return values


def apply_effects(n, cells):
    """Apply each legal move once, directly on the state after cells.

    Returns, per move, whether apply_move returned a new object and left the state unchanged.
    Stops at the first move that changes the state (the state is spoilt after it).
    """
    state, reader, _, _, problem = _replay(n, cells)
    if problem:
        return {"stopped": problem, "checks": []}
    checks = []
    for move in state.possible_next_moves():
        before = (reader.read(state), _safe(lambda: state.next_player), _safe(lambda: state.over))
        result = state.apply_move(move)
        after = (reader.read(state), _safe(lambda: state.next_player), _safe(lambda: state.over))
        checks.append({
            "move": str(_safe(lambda m=move: repr(m)))[:100],
            "returned_none": result is None,
            "returned_self": result is state,
            "state_unchanged": before == after,
            "board_before": before[0],
            "board_after": after[0],
            "result_board": reader.read(result) if result is not None else None,
        })
        if before != after:
            break
    return {"stopped": None, "checks": checks}


def replay_taken(n, cells):
    """Re-apply every move already played to the state after cells.

    Each such move marks a taken square, so apply_move must return None. Returns a list of
    {"cell": [r, c], "returned_none": bool, "board": board of the result or None}.
    """
    state, reader, used, _, problem = _replay(n, cells)
    if problem:
        return {"stopped": problem, "results": []}
    results = []
    for cell, move in zip(cells, used, strict=True):
        result = _child(state, move)
        results.append({"cell": list(cell), "returned_none": result is None,
                        "board": reader.read(result) if result is not None else None})
    return {"stopped": None, "results": results}


def _suggest(state, reader):
    """Return {"cell": [r, c] or None, "why": text or None} for StrategyMinimax on state."""
    from strategy_minimax import StrategyMinimax

    before = reader.read(state)
    move = StrategyMinimax(interactive=False).suggest_move(state)
    if reader.read(state) != before:
        return {"cell": None, "why": "suggest_move changed the state it was given"}
    child = _child(state, move)
    shown = _safe(lambda: repr(move))
    if child is None:
        return {"cell": None, "why": f"suggested {shown}, which apply_move refuses"}
    cell = _cell_changed(before, reader.read(child))
    if cell is None:
        return {"cell": None, "why": f"suggested {shown}, which marks no single square"}
    return {"cell": cell, "why": None}


def minimax_move(n, cells):
    """Return the square StrategyMinimax(interactive=False) suggests after cells are marked."""
    state, reader, _, _, problem = _replay(n, cells)
    if problem:
        return {"cell": None, "why": "could not set up the position: " + problem["why"]}
    return _suggest(state, reader)


def minimax_vs_random(n, cells, seeds):
    """Play StrategyMinimax for the player to move after cells against random moves.

    One game per seed; the random player picks uniformly among the legal squares in row-major
    order with random.Random(seed). Returns per game {"cells": every square marked from the
    position on, "why": None or why the game stopped early}.
    """
    games = []
    for seed in seeds:
        state, reader, _, _, problem = _replay(n, cells)
        if problem:
            return [{"cells": [], "why": "could not set up the position: " + problem["why"]}]
        side, rng, played, why = state.next_player, random.Random(seed), [], None
        while not state.over and why is None:
            found, _ = _moves_by_cell(state, reader)
            if state.next_player == side:
                answer = _suggest(state, reader)
                cell, why = answer["cell"], answer["why"]
            else:
                cell = list(sorted(found)[rng.randrange(len(found))]) if found else None
                why = None if found else "no legal move for the random player"
            if cell is not None and tuple(cell) in found:
                played.append(cell)
                state = found[tuple(cell)][1]
            elif why is None:
                why = f"square {cell} is not among the legal moves"
        games.append({"cells": played, "why": why})
    return games


def move_facts(n):
    """TippyMove seen through the game: one move per empty square, its text, and reuse.

    Reuse: every opening move, applied to the state after the first opening move, must still
    mark its own square (moves describe squares, as get_move's new objects must).
    """
    reader = _reader_for(n)
    start = _new_game(n)
    found, odd = _moves_by_cell(start, reader)
    cells = sorted(found)
    texts = [[_safe(lambda m=found[c][0]: repr(m)), _safe(lambda m=found[c][0]: str(m))]
             for c in cells]
    broken = []
    if cells:
        later = found[cells[0]][1]
        before = reader.read(later)
        for cell in cells[1:]:
            child = _child(later, found[cell][0])
            got = _cell_changed(before, reader.read(child)) if child is not None else None
            if got != list(cell):
                broken.append({"cell": list(cell), "marked": got})
    return {"cells": [list(c) for c in cells], "odd_moves": odd, "texts": texts,
            "not_reusable": broken}


def minimax_subtract_square(total):
    """Return the amount StrategyMinimax removes from SubtractSquareState('p1', total)."""
    from strategy_minimax import StrategyMinimax
    from subtract_square_state import SubtractSquareState

    move = StrategyMinimax(interactive=False).suggest_move(
        SubtractSquareState("p1", current_total=total))
    return _safe(lambda: move.amount)


def run_game_view(answers):
    """Run game_view.py as __main__ with input() answering from answers, in order.

    Returns {"transcript": prompts, answers and prints, "error": None or the exception,
    "minimax_calls": how often StrategyMinimax.suggest_move was asked}.
    """
    import contextlib
    import io
    import runpy

    import strategy_minimax

    feed = iter(answers)
    calls = []
    suggest = strategy_minimax.StrategyMinimax.suggest_move

    def fake_input(prompt=""):
        line = next(feed, None)
        if line is None:
            raise EOFError("the scripted answers ran out")
        print(f"{prompt}{line}")
        return line

    def counted(self, state):
        # The hook-up is graded here, not the search (the minimax criterion does that): a
        # counting stand-in that plays the first legal move keeps this call fast.
        calls.append(1)
        return state.possible_next_moves()[0]

    out, error = io.StringIO(), None
    real_input, builtins.input = builtins.input, fake_input
    strategy_minimax.StrategyMinimax.suggest_move = counted
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path("game_view.py", run_name="__main__")
    except BaseException as exc:  # noqa: BLE001 - SystemExit too: the transcript says why
        error = f"{type(exc).__name__}: {exc}"[:300]
    finally:
        builtins.input = real_input
        strategy_minimax.StrategyMinimax.suggest_move = suggest
    return {"transcript": out.getvalue()[-20000:], "error": error, "minimax_calls": len(calls)}
