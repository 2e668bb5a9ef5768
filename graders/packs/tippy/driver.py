"""Child-side driver for the tippy pack: plays the student's code through the starter API only.

Runs inside the sandbox, stdlib only, never imports ``graders``. Students' constructors and
``get_move`` texts differ, so a game is built as ``TippyGameState('p1', interactive=True)`` with
the size prompt answered by a patched ``input``, and then driven with ``possible_next_moves()``,
``apply_move()``, ``over``, ``next_player``, ``winner()``, ``outcome()`` and
``StrategyMinimax(interactive=False).suggest_move(state)``.

Moves are known by their effect. The board is read from ``str(state)``: on the empty board
every legal move is applied once, and the one character position each move changes (and no
other move does) is that square; positions sorted in reading order give row-major squares. If
``str`` does not show the board that way, the state's attributes are searched for an n x n grid
(list of lists, list of strings, flat list, dict keyed by (row, column)) calibrated the same
way. A layout read in transposed or mirrored order is one of the square's symmetries, under
which the tippy rules do not change. Boards come back as lists of strings: 'X' for p1's mark,
'O' for p2's, '.' for empty, '?' for anything else.
"""

import builtins
import copy
import random

_READERS = {}
# Whether apply_move changes the state it is called on: None (not known yet) or True mean moves
# are applied to copies; once seen to mutate, always copies.
_MUTATES = {"apply_move": None}


class _Reader:
    """Reads a board out of one view of a state (its text or one attribute)."""

    def __init__(self, n, view, where, positions, empties, p1_token, p2_token):
        self.n = n
        self.view = view
        self.where = where
        self.positions = positions
        self.empties = empties
        self.tokens = {p1_token: "X", p2_token: "O"}

    def read(self, state):
        """Return the board of state as n strings, or None if it cannot be read."""
        seen = _try_view(self.view, state)
        if seen is None or len(seen) <= max(self.positions):
            return None
        marks = []
        for pos, empty in zip(self.positions, self.empties, strict=True):
            token = seen[pos]
            marks.append("." if token == empty else self.tokens.get(token, "?"))
        n = self.n
        return ["".join(marks[r * n:(r + 1) * n]) for r in range(n)]


def _try_view(view, state):
    try:
        return view(state)
    except Exception:
        return None


def _text_view(state):
    return str(state)


def _grid_cells(value, n):
    """Return value as a flat list of n*n squares if it looks like an n x n board."""
    if isinstance(value, dict):
        keys = sorted(value)
        if len(keys) == n * n and all(isinstance(k, tuple) and len(k) == 2 for k in keys):
            return [value[k] for k in keys]
        return None
    if not isinstance(value, (list, tuple, str)):
        return None
    if len(value) == n and all(isinstance(row, (list, tuple, str)) and len(row) == n
                               for row in value):
        return [cell for row in value for cell in row]
    if len(value) == n * n and not isinstance(value, str):
        return list(value)
    return None


def _attribute_view(name, n):
    return lambda state: _grid_cells(vars(state).get(name), n)


def new_game(n):
    """Return TippyGameState('p1', interactive=True) with every prompt answered by n."""
    from tippy_game_state import TippyGameState

    real_input = builtins.input
    builtins.input = lambda prompt="": str(n)
    try:
        return TippyGameState("p1", interactive=True)
    finally:
        builtins.input = real_input


def _child(state, move):
    """Return state.apply_move(move) without letting a mutating apply_move spoil state."""
    if _MUTATES["apply_move"] is False:
        return state.apply_move(move)
    try:
        twin = copy.deepcopy(state)
    except Exception:
        twin = None
    if twin is not None:
        result = twin.apply_move(move)
        if result is not None:
            return result
    # Refused on the copy: either illegal, or moves that compare by identity.
    return state.apply_move(move)


def _calibrate(n, view, where):
    """Return a _Reader for view if each opening move changes exactly one position of it."""
    start = new_game(n)
    base = _try_view(view, start)
    moves = start.possible_next_moves()
    if base is None or len(moves) != n * n:
        return None
    children = [_child(start, m) for m in moves]
    diffs = [_diff(base, _try_view(view, c)) for c in children]
    if any(d is None for d in diffs):
        return None
    common = set.intersection(*diffs)
    own = [d - common for d in diffs]
    if any(len(d) != 1 for d in own) or len(set.union(*own)) != n * n:
        return None
    pos_of = [min(d) for d in own]
    p1_tokens = {_try_view(view, c)[p] for c, p in zip(children, pos_of, strict=True)}
    positions = sorted(pos_of)
    p2_token = _second_token(view, children[0], pos_of[0], set(positions))
    if len(p1_tokens) != 1 or p2_token is None:
        return None
    empties = [base[p] for p in positions]
    p1_token = p1_tokens.pop()
    if p2_token == p1_token or p1_token in empties or p2_token in empties:
        return None
    return _Reader(n, view, where, positions, empties, p1_token, p2_token)


def _diff(before, after):
    if before is None or after is None:
        return None
    return {i for i in range(min(len(before), len(after))) if before[i] != after[i]}


def _second_token(view, state, taken, positions):
    """Return the token p2's move leaves, seen after one p1 move."""
    before = _try_view(view, state)
    for move in state.possible_next_moves():
        after = _try_view(view, _child(state, move))
        changed = (_diff(before, after) or set()) & positions - {taken}
        if len(changed) == 1:
            return after[changed.pop()]
    return None


class _Chain:
    """Readers of one board size, best first: the first clean reading wins.

    A later view helps when an earlier one misreads a state (say str shifts its layout once a
    counter grows a digit).
    """

    def __init__(self, readers):
        self.readers = readers
        self.n = readers[0].n

    def read(self, state):
        """Return the first reading without '?', else the first reading at all."""
        first = None
        for reader in self.readers:
            board = reader.read(state)
            if board is not None and not any("?" in row for row in board):
                return board
            first = first or board
        return first


def reader_for(n):
    """Return the calibrated board reader for n x n games (cached per size)."""
    if n not in _READERS:
        start = new_game(n)
        views = [(_text_view, "str(state)")] + [
            (_attribute_view(name, n), "attribute " + name) for name in sorted(vars(start))
            if _try_view(_attribute_view(name, n), start) is not None]
        readers = [r for r in (_calibrate(n, view, where) for view, where in views) if r]
        if not readers:
            count = len(start.possible_next_moves())
            raise RuntimeError(
                "cannot find the board of TippyGameState('p1', interactive=True) "
                f"with size {n} answered: possible_next_moves() gave {count} moves "
                f"(expected {n * n}), and neither str(state) nor an attribute shows a grid "
                "where each opening move changes one square")
        _READERS[n] = _Chain(readers)
        if _MUTATES["apply_move"] is not True:
            _MUTATES["apply_move"] = _mutates(n, _READERS[n])
    return _READERS[n]


def _mutates(n, reader):
    """Whether apply_move changes the state it is called on (checked on an opening move)."""
    state = new_game(n)
    before = (reader.read(state), _safe(lambda: state.next_player), _safe(lambda: state.over))
    state.apply_move(state.possible_next_moves()[0])
    return before != (reader.read(state), _safe(lambda: state.next_player),
                      _safe(lambda: state.over))


def _cell_changed(before, after):
    """Return [row, column] of the one square that differs, or None."""
    if before is None or after is None:
        return None
    cells = [[r, c] for r, row in enumerate(before) for c, mark in enumerate(row)
             if after[r][c] != mark]
    return cells[0] if len(cells) == 1 else None


def _moves_by_cell(state, reader):
    """Return ({(row, column): (move, child)}, [descriptions of moves with no clear square])."""
    before = reader.read(state)
    found, odd = {}, []
    for move in state.possible_next_moves():
        child = _child(state, move)
        cell = _cell_changed(before, reader.read(child)) if child is not None else None
        if cell is None or tuple(cell) in found:
            why = "refused by apply_move" if child is None else "does not mark one new square"
            odd.append(f"{_safe(lambda m=move: repr(m))}: {why}")
        else:
            found[tuple(cell)] = (move, child)
    if reader.read(state) != before:
        _MUTATES["apply_move"] = True
        raise RuntimeError("apply_move changed the state it was called on (it must return a "
                           f"new state): the board was {before}, now {reader.read(state)}")
    return found, odd


def _plain(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return f"<{type(value).__name__}> {value!r}"[:200]


def _safe(call):
    try:
        return _plain(call())
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"[:300]}


def summarize(state, reader, with_moves=True):
    """Return plain facts about state: board, over, next_player, winners, outcome, moves."""
    found, odd = _moves_by_cell(state, reader) if with_moves else ({}, [])
    facts = {
        "board": reader.read(state),
        "over": _safe(lambda: state.over),
        "next_player": _safe(lambda: state.next_player),
        "winner": {p: _safe(lambda p=p: state.winner(p)) for p in ("p1", "p2")},
        "outcome": _safe(state.outcome),
    }
    if with_moves:
        facts.update(moves=sorted([r, c] for r, c in found), odd_moves=odd)
    return facts


_HINTS = {}


def _hint_key(n, move):
    """Return a key that names move across states, or None if its repr holds an address."""
    try:
        text = repr(move)
    except Exception:
        return None
    return None if " at 0x" in text else (n, text)


def _find_move(state, reader, cell, before):
    """Return (move, child, child's board) for the legal move that marks cell, or None.

    before is the board of state. Moves whose repr marked cell before are tried first; every
    candidate is checked by its effect.
    """
    cell = tuple(cell)
    moves = list(state.possible_next_moves())
    keys = [_hint_key(reader.n, m) for m in moves]
    order = sorted(range(len(moves)), key=lambda i: keys[i] is None or _HINTS.get(keys[i]) != cell)
    for i in order:
        child = _child(state, moves[i])
        after = reader.read(child) if child is not None else None
        got = _cell_changed(before, after)
        if got is not None:
            if keys[i] is not None:
                _HINTS[keys[i]] = tuple(got)
            if tuple(got) == cell:
                return moves[i], child, after
    return None


def _replay(n, cells, every_step=False):
    """Mark cells in turn from the start of an n x n game.

    Returns (state, reader, moves used, summaries before each move if every_step, problem),
    where problem is None or {"at": index, "cell": [r, c], "why": text}.
    """
    reader = reader_for(n)
    state = new_game(n)
    board = reader.read(state)
    used, steps = [], []
    for i, cell in enumerate(cells):
        if every_step:
            steps.append(summarize(state, reader))
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
    return {"final": summarize(state, reader), "steps": steps, "stopped": problem}


def play_many(n, games):
    """Return the final summary (without moves) plus "stopped" for each cell list in games."""
    results = []
    for cells in games:
        state, reader, _, _, problem = _replay(n, cells)
        results.append(dict(summarize(state, reader, with_moves=False), stopped=problem))
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
    reader = reader_for(n)
    start = new_game(n)
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
