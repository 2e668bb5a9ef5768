"""Board reading for the tippy driver: finds the board of a student's TippyGameState and its moves.

Imported by ``driver.py`` (copied beside it into the sandbox's /harness folder); runs inside the
sandbox, stdlib only, never imports ``graders``. This module holds the driver's caches (calibrated
readers, whether apply_move mutates, move hints), so they exist once per worker.

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


def child_of(state, move):
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
    children = [child_of(start, m) for m in moves]
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
        after = _try_view(view, child_of(state, move))
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
    before = (reader.read(state), safe(lambda: state.next_player), safe(lambda: state.over))
    state.apply_move(state.possible_next_moves()[0])
    return before != (reader.read(state), safe(lambda: state.next_player),
                      safe(lambda: state.over))


def cell_changed(before, after):
    """Return [row, column] of the one square that differs, or None."""
    if before is None or after is None:
        return None
    cells = [[r, c] for r, row in enumerate(before) for c, mark in enumerate(row)
             if after[r][c] != mark]
    return cells[0] if len(cells) == 1 else None


def moves_by_cell(state, reader):
    """Return ({(row, column): (move, child)}, [descriptions of moves with no clear square])."""
    before = reader.read(state)
    found, odd = {}, []
    for move in state.possible_next_moves():
        child = child_of(state, move)
        cell = cell_changed(before, reader.read(child)) if child is not None else None
        if cell is None or tuple(cell) in found:
            why = "refused by apply_move" if child is None else "does not mark one new square"
            odd.append(f"{safe(lambda m=move: repr(m))}: {why}")
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


def safe(call):
    try:
        return _plain(call())
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"[:300]}


def summarize(state, reader, with_moves=True):
    """Return plain facts about state: board, over, next_player, winners, outcome, moves."""
    found, odd = moves_by_cell(state, reader) if with_moves else ({}, [])
    facts = {
        "board": reader.read(state),
        "over": safe(lambda: state.over),
        "next_player": safe(lambda: state.next_player),
        "winner": {p: safe(lambda p=p: state.winner(p)) for p in ("p1", "p2")},
        "outcome": safe(state.outcome),
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


def find_move(state, reader, cell, before):
    """Return (move, child, child's board) for the legal move that marks cell, or None.

    before is the board of state. Moves whose repr marked cell before are tried first; every
    candidate is checked by its effect.
    """
    cell = tuple(cell)
    moves = list(state.possible_next_moves())
    keys = [_hint_key(reader.n, m) for m in moves]
    order = sorted(range(len(moves)), key=lambda i: keys[i] is None or _HINTS.get(keys[i]) != cell)
    for i in order:
        child = child_of(state, moves[i])
        after = reader.read(child) if child is not None else None
        got = cell_changed(before, after)
        if got is not None:
            if keys[i] is not None:
                _HINTS[keys[i]] = tuple(got)
            if tuple(got) == cell:
                return moves[i], child, after
    return None

