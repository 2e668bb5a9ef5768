"""Exact Stonehenge oracle on plain data (parent side: stdlib and the engine's solver).

Positions are plain values (bitmasks), never student or reference objects, so the grader can
compute every expected answer itself: the board text, the legal moves, the winner, the rough
outcome, the minimax score of every move and the size of the plain minimax tree.

The scores come from the engine's negamax (graders/solver.py) over these rules. Stonehenge has
no draws: every score is 1 or -1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from graders.solver import DRAW, LOSE, WIN, Negamax

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SIDES = range(1, 6)


@dataclass(frozen=True)
class Geometry:
    """The cells and ley-lines of one board size (a cell is its index in ``letters``).

    ``rows`` holds each row's cells; ``lines`` (name, cells) in the order h0..hn, dl0..dln,
    dr0..drn; ``through``, per cell, (bit, bitmask of its cells, length) of every ley-line
    through it.
    """

    side: int
    letters: str
    rows: tuple[tuple[int, ...], ...]
    lines: tuple[tuple[str, tuple[int, ...]], ...]
    through: tuple[tuple[tuple[int, int, int], ...], ...]

    def line_index(self, name: str) -> int:
        """Where ley-line ``name`` is in ``lines``: its bit in a player's captured lines."""
        return [line for line, _ in self.lines].index(name)


@cache
def geometry(side: int) -> Geometry:
    """Cells are (row, column); the last row's columns start at 1 (its corners are cut)."""
    if side not in SIDES:
        raise ValueError(f"side length must be 1..5, not {side}")
    coords = [(r, c) for r in range(side) for c in range(r + 2)]
    coords += [(side, c) for c in range(1, side + 1)]
    rows = tuple(
        tuple(i for i, (r, _) in enumerate(coords) if r == row) for row in range(side + 1)
    )
    families = (
        ("h", lambda r, c: r),
        ("dl", lambda r, c: c),
        ("dr", lambda r, c: r + 1 - c),
    )
    lines = tuple(
        (f"{prefix}{k}", tuple(i for i, (r, c) in enumerate(coords) if key(r, c) == k))
        for prefix, key in families
        for k in range(side + 1)
    )
    through = tuple(tuple((1 << k, sum(1 << i for i in members), len(members))
                          for k, (_, members) in enumerate(lines) if cell in members)
                    for cell in range(len(coords)))
    return Geometry(side, LETTERS[: len(coords)], rows, lines, through)


@dataclass(frozen=True)
class Position:
    """A Stonehenge position: bitmasks of claimed cells and captured ley-lines per player."""

    side: int
    p1_turn: bool
    p1_cells: int = 0
    p2_cells: int = 0
    p1_lines: int = 0
    p2_lines: int = 0

    @property
    def player(self) -> str:
        return "p1" if self.p1_turn else "p2"


def start(side: int, p1_starts: bool = True) -> Position:
    geometry(side)
    return Position(side, p1_starts)


def winner(pos: Position) -> str:
    """'p1' or 'p2' once a player holds at least half of the ley-lines, else ''."""
    total = 3 * (pos.side + 1)
    if 2 * pos.p1_lines.bit_count() >= total:
        return "p1"
    if 2 * pos.p2_lines.bit_count() >= total:
        return "p2"
    return ""


def moves(pos: Position) -> list[str]:
    """Letters of the free cells in order, or [] once the game is over."""
    if winner(pos):
        return []
    taken = pos.p1_cells | pos.p2_cells
    return [
        letter for i, letter in enumerate(geometry(pos.side).letters) if not taken >> i & 1
    ]


@dataclass(frozen=True)
class Rules:
    """How ley-lines are captured: the handout's rule, or one of the known slips of it that a
    student's game may follow throughout (its boards, endings and winners then follow too)."""

    more_than_half: bool = False  # a line needs MORE than half of its cells
    lines_change_hands: bool = False  # a captured line goes to whoever reaches half of it next


HANDOUT = Rules()
# The capture rule's known slips, by the cause a test names when a game follows one.
SLIPS = {
    "capture-more-than-half": Rules(more_than_half=True),
    "line-changes-hands": Rules(lines_change_hands=True),
}


def play(pos: Position, letter: str, rules: Rules = HANDOUT) -> Position:
    """The position after the player to move claims the cell ``letter`` (under ``rules``)."""
    geo = geometry(pos.side)
    index = geo.letters.find(letter) if len(letter) == 1 else -1
    if index < 0 or (pos.p1_cells | pos.p2_cells) >> index & 1 or winner(pos):
        raise ValueError(f"{letter!r} is not a legal move")
    mine = (pos.p1_cells if pos.p1_turn else pos.p2_cells) | 1 << index
    claimed = pos.p1_lines | pos.p2_lines
    captured = 0
    for bit, members, length in geo.through[index]:
        held = 2 * (mine & members).bit_count()
        enough = held > length if rules.more_than_half else held >= length
        if enough and (rules.lines_change_hands or not claimed & bit):
            captured |= bit
    if pos.p1_turn:
        return Position(pos.side, False, mine, pos.p2_cells, pos.p1_lines | captured,
                        pos.p2_lines & ~captured)
    return Position(pos.side, True, pos.p1_cells, mine, pos.p1_lines & ~captured,
                    pos.p2_lines | captured)


def replay(side: int, p1_starts: bool, sequence: list[str] | str,
           rules: Rules = HANDOUT) -> Position:
    """The position reached from the empty board by playing ``sequence`` (letters)."""
    return trace(side, p1_starts, sequence, rules)[-1]


def trace(side: int, p1_starts: bool, sequence: list[str] | str,
          rules: Rules = HANDOUT) -> list[Position]:
    """The start position and the position after each move of ``sequence``; under a slip's
    ``rules``, only as far as its game lets them be played (it may end sooner)."""
    positions = [start(side, p1_starts)]
    for letter in sequence:
        try:
            positions.append(play(positions[-1], letter, rules))
        except ValueError:
            if rules == HANDOUT:
                raise
            break
    return positions


def views(side: int, p1_starts: bool, sequence: list[str] | str,
          slip: str | None = None) -> list[dict[str, Any]]:
    """What the game shows at the start and after each move of ``sequence``, as plain data
    (the board as the handout draws it, the player to move, the legal moves, the winner or
    ''): under the handout's rules, or under a known ``slip`` of them (``SLIPS``) as far as
    its game goes. The tests ask for each slip's views on every case, so that the pre-check,
    which knows only the answers recorded on the reference's run, has them too."""
    rules = SLIPS[slip] if slip else HANDOUT
    return [{"board": render(pos), "player": pos.player, "moves": moves(pos),
             "winner": winner(pos)} for pos in trace(side, p1_starts, sequence, rules)]


def slip_best_moves(side: int, p1_starts: bool, sequence: list[str] | str,
                    slip: str) -> list[str]:
    """Every optimal move after ``sequence`` in the game of a known slip of the rules."""
    return SLIP_SOLVERS[slip].best_moves(replay(side, p1_starts, sequence, SLIPS[slip]))


def _mark(p1: int, p2: int, index: int, free: str) -> str:
    """'1' or '2' when bit ``index`` is the player's, else ``free``."""
    return "1" if p1 >> index & 1 else "2" if p2 >> index & 1 else free


def render(pos: Position) -> str:
    """The board exactly as the handout draws it (no trailing spaces, no final newline)."""
    n, geo = pos.side, geometry(pos.side)
    mark = {name: _mark(pos.p1_lines, pos.p2_lines, k, "@") for k, (name, _) in
            enumerate(geo.lines)}
    cells = [[_mark(pos.p1_cells, pos.p2_cells, i, geo.letters[i]) for i in row]
             for row in geo.rows]
    out = [" " * (2 * n + 4) + f"{mark['dl0']}   {mark['dl1']}", " " * (2 * n + 3) + "/   /"]
    for r in range(n):
        text = " " * (2 * (n - 1 - r)) + " - ".join([mark[f"h{r}"], *cells[r]])
        if r < n - 1:
            out.append(f"{text}   {mark[f'dl{r + 2}']}")
            out.append(" " * (2 * (n - 2 - r) + 5) + "/ \\ " * (r + 2) + "/")
        else:
            out.append(text)
            out.append(" " * 5 + "\\ / " * n + "\\")
    out.append("  " + " - ".join([mark[f"h{n}"], *cells[n]]) + f"   {mark['dr0']}")
    out.append(" " * 7 + "   ".join(["\\"] * n))
    out.append(" " * 8 + "   ".join(mark[f"dr{k}"] for k in range(n, 0, -1)))
    return "\n".join(out)


def tokens(board: str) -> list[list[str]]:
    """Token-wise view of a board: per line, its runs of letters, digits or '@'.

    Anything else separates tokens (spaces, ``-``, ``|``, brackets), so ``@ - A - B``,
    ``@-A-B`` and ``@ | A | B`` read the same; lines holding no token (the connector art)
    are dropped. Markers, cells and their order are graded; spacing and separators are not.
    """
    kept = [_TOKEN.findall(line) for line in board.splitlines()]
    return [line for line in kept if line]


_TOKEN = re.compile(r"[A-Za-z0-9@]+")


def _outcome(pos: Position) -> int | None:
    """The score of a finished game for the player to move, else None."""
    decided = winner(pos)
    if decided:
        return WIN if decided == pos.player else LOSE
    return None if moves(pos) else DRAW


def _mover_view(pos: Position) -> tuple[int, int, int, int, int]:
    """The game is symmetric: a position is its side and the mover's and opponent's bits."""
    if pos.p1_turn:
        return pos.side, pos.p1_cells, pos.p2_cells, pos.p1_lines, pos.p2_lines
    return pos.side, pos.p2_cells, pos.p1_cells, pos.p2_lines, pos.p1_lines


SOLVER = Negamax(moves, play, _outcome, _mover_view)
# The same search over a slip's rules: what the instructor's minimax finds on a game that
# follows it.
SLIP_SOLVERS = {cause: Negamax(moves, partial(play, rules=rules), _outcome,
                               _mover_view) for cause, rules in SLIPS.items()}
# What the player to move can guarantee (WIN or LOSE: Stonehenge has no draws), what each move
# guarantees, every optimal move, and how many states a plain minimax visits (the cost a
# student's code pays).
solve, move_scores = SOLVER.score, SOLVER.move_scores
best_moves, tree_size = SOLVER.best_moves, SOLVER.tree_size


def rough_outcome(pos: Position) -> int:
    """The handout's estimate: WIN/LOSE if decided now or in one move, LOSE if every move lets
    the opponent win at once, else DRAW."""
    if winner(pos):
        return WIN if winner(pos) == pos.player else LOSE
    children = [play(pos, letter) for letter in moves(pos)]
    if any(winner(child) == pos.player for child in children):
        return WIN
    if all(_wins_at_once(child) for child in children):
        return LOSE
    return DRAW


def _wins_at_once(pos: Position) -> bool:
    return any(winner(play(pos, letter)) == pos.player for letter in moves(pos))

