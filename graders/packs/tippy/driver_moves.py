"""Which square a student's move stands for, learned once per board size (child side).

From the opening moves of a new game: 1. coordinates, two whole numbers (or one running index)
in the same place of every move (an attribute, its repr or str) naming each square once (0- or
1-based, rows and columns in either order: symmetries under which the rules hold); 2. effect,
the new pair of numbers (or the one changed character) str(state) shows after each opening
move; later moves are then known by their repr/str or by == with an opening move.
"""

import copy
import re

import harness_kit as kit

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?![\w.])")
_READERS = {}
_ATTRIBUTE = "attribute "
_SHOWN = {"repr": repr, "str": str}


def new_game(n, state_class):
    """The student's TippyGameState('p1', interactive=True), every prompt answered by n."""
    with kit.typed(then=str(n)):
        return state_class("p1", interactive=True)


def child_of(state, move):
    """state.apply_move(move) on a copy, so that a mutating apply_move spoils nothing."""
    try:
        twin = copy.deepcopy(state)
    except Exception:
        twin = state
    return twin.apply_move(move)


def text_of(thing, show=repr):
    """show(thing), or '' when it raises."""
    try:
        return str(show(thing))
    except Exception:
        return ""


def _ints(value):
    """The whole numbers value holds (an int, a short tuple or list of ints, or a text)."""
    if type(value) is int:  # most moves keep their row and column so: read on every move
        return [value]
    whole = isinstance(value, int) and not isinstance(value, bool)
    if whole or isinstance(value, (tuple, list)) and len(value) <= 4:
        values = [value] if whole else list(value)
        return values if all(isinstance(v, int) and not isinstance(v, bool) for v in values) \
            else None
    if isinstance(value, str) and len(value) < 200 and " at 0x" not in value:
        return [int(t) for t in _NUMBER.findall(value)]
    return None


def _features(move):
    """{source: [ints]} for a move: each attribute, then its repr, then its str."""
    try:
        names = sorted(vars(move))
    except TypeError:
        names = sorted(getattr(move, "__slots__", ()))
    found = {}
    for source in [*(_ATTRIBUTE + name for name in names), "repr", "str"]:
        numbers = _feature(move, source)
        if numbers:
            found[source] = numbers
    return found


def _feature(move, source):
    """The whole numbers of one source of a move (an attribute, its repr or its str), or
    None: a reader reads its own sources only, so it calls no more of the student's code."""
    if source in _SHOWN:
        return _ints(text_of(move, _SHOWN[source]))
    name = source[len(_ATTRIBUTE):]
    try:
        fields = vars(move)
    except TypeError:
        slots = tuple(getattr(move, "__slots__", ()))
        return _ints(getattr(move, name, None)) if name in slots else None
    return _ints(fields[name]) if name in fields else None


def _in_reading_order(sources):
    """Sources in the order :func:`_features` reads them: attributes by name, repr, str."""
    return sorted(sources, key=lambda source: (source in _SHOWN, source == "str", source))


def _columns(samples):
    """[(source, index)] present, with the same count of numbers, in every sample."""
    first = samples[0]
    return [(source, i) for source, numbers in first.items() for i in range(len(numbers))
            if all(len(s.get(source, ())) == len(numbers) for s in samples)]


def _span(values, size):
    """The smallest value if values are exactly `size` consecutive numbers, else None."""
    distinct = set(values)
    return min(distinct) if len(distinct) == size == max(distinct) - min(distinct) + 1 else None


class CoordinateReader:
    """Reads a move's square from numbers in its attributes, repr or str."""

    def __init__(self, n, columns, lows, where):
        self.n, self.columns, self.lows, self.where = n, columns, lows, where
        self.sources = _in_reading_order({source for source, _ in columns})

    def cell(self, move):
        """Return (row, column) for move, or None."""
        found = {source: _feature(move, source) for source in self.sources}
        values = []
        for (source, i), low in zip(self.columns, self.lows, strict=True):
            numbers = found[source]
            if not numbers or i >= len(numbers):
                return None
            try:  # a student's int subclass may do anything
                values.append(numbers[i] - low)
            except (KeyError, IndexError):
                return None
        if len(values) == 1:
            values = list(divmod(values[0], self.n))
        cell = tuple(values)
        return cell if all(0 <= v < self.n for v in cell) else None


def _coordinate_reader(n, moves):
    samples = [_features(m) for m in moves]
    if len(moves) != n * n or not samples[0]:
        return None
    columns = _columns(samples)
    for a, col_a in enumerate(columns):
        for col_b in columns[a + 1:]:
            pairs = [(s[col_a[0]][col_a[1]], s[col_b[0]][col_b[1]]) for s in samples]
            lows = (_span([p[0] for p in pairs], n), _span([p[1] for p in pairs], n))
            if None not in lows and len(set(pairs)) == n * n:
                if _like(col_b[0], "row", "yr") or _like(col_a[0], "col", "xc"):
                    # Rows first, as the student named them: messages then use their notation.
                    col_a, col_b, lows = col_b, col_a, lows[::-1]
                return CoordinateReader(n, [col_a, col_b], list(lows), _where(col_a, col_b))
    for col in columns:
        low = _span([s[col[0]][col[1]] for s in samples], n * n)
        if low is not None:
            return CoordinateReader(n, [col], [low], _where(col))
    return None


def _like(source, word, letters):
    name = source.split()[-1].lower().strip("_")
    return word in name or (len(name) == 1 and name in letters)


def _where(*columns):
    return " and ".join(f"number {i + 1} of its {source}" for source, i in columns)


class EffectReader:
    """Knows the opening moves' squares by their effect; later moves by text or ==."""

    def __init__(self, n, moves, cells, where):
        self.n, self.where = n, where
        self.pairs = list(zip(moves, cells, strict=True))
        self.by_text = {}
        for show in (repr, str):
            texts = [text_of(m, show) for m in moves]
            if all(t and " at 0x" not in t for t in texts) and len(set(texts)) == len(texts):
                self.by_text[show] = dict(zip(texts, cells, strict=True))

    def cell(self, move):
        """Return (row, column) for move, or None."""
        for show, table in self.by_text.items():
            found = table.get(text_of(move, show))
            if found is not None:
                return found
        for known, cell in self.pairs:
            try:
                if known is move or known == move:
                    return cell
            except Exception:
                continue
        return None


def _new_numbers(before, after):
    """The numbers str(state) shows after a move that it did not show before."""
    rest, new = list(_ints(before) or []), []
    for number in _ints(after) or []:
        (rest.remove if number in rest else new.append)(number)
    return new


def _effect_reader(n, start, moves):
    if len(moves) != n * n:
        return None
    base = text_of(start, str)
    after = [text_of(child_of(start, m), str) for m in moves]
    news = [_new_numbers(base, text) for text in after]
    if all(len(x) == 2 for x in news):
        lows = (_span([x[0] for x in news], n), _span([x[1] for x in news], n))
        cells = [(x[0] - lows[0], x[1] - lows[1]) for x in news] if None not in lows else []
        if len(set(cells)) == n * n:
            return EffectReader(n, moves, cells, "the square str(state) names after it")
    return _grid_effect(n, base, moves, after)


def _grid_effect(n, base, moves, after):
    """Squares from the one character of str(state) each opening move changes."""
    diffs = [{i for i in range(min(len(base), len(t))) if base[i] != t[i]} for t in after]
    common = set.intersection(*diffs) if diffs else set()
    own = [d - common for d in diffs]
    if any(len(d) != 1 for d in own) or len(set.union(*own)) != n * n:
        return None
    order = sorted(min(d) for d in own)
    cells = [divmod(order.index(min(d)), n) for d in own]
    return EffectReader(n, moves, cells, "the square of str(state) it marks")


def reader_for(n, state_class):
    """Return the move reader for n x n games of state_class (learned once per size and
    worker)."""
    if n not in _READERS:
        start = new_game(n, state_class)
        moves = list(start.possible_next_moves())
        reader = _coordinate_reader(n, moves) or _effect_reader(n, start, moves)
        side = round(len(moves) ** 0.5)
        if reader is None and side >= 3 and side * side == len(moves) != n * n:
            # a working game of another size: not the moves' fault, the size typed is unused
            raise RuntimeError(
                f"a new TippyGameState with {n} typed at its size prompt offers {len(moves)} "
                f"moves, one per square of a {side} x {side} grid, not {n * n}: the game must "
                "be as large as the size the player types")
        if reader is None:
            shown = ", ".join(text_of(m) for m in moves[:3])
            raise RuntimeError(
                f"cannot tell which square each move stands for: a new {n} x {n} "
                f"TippyGameState (size {n} typed at its prompt) gave {len(moves)} moves "
                f"(expected {n * n}: one per square), such as {shown or 'none'}; a move "
                "should keep its row and column (in attributes, repr or str)")
        _READERS[n] = reader
    return _READERS[n]


def moves_of(state, reader):
    """Return ({(row, column): move} for state's legal moves, [texts of moves with no square])."""
    found, odd = {}, []
    for move in state.possible_next_moves():
        cell = reader.cell(move)
        if cell is None or cell in found:
            why = "no square" if cell is None else f"a second move for square {cell}"
            odd.append(f"{text_of(move)[:80]}: {why}")
        else:
            found[cell] = move
    return found, odd
