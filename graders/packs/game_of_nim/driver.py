"""Child-side driver of the game_of_nim pack: runs in the sandbox beside ``game_of_nim.py``.

Standard library and ``harness_kit`` only. Every public function is an operation the parent
calls by name with JSON arguments and returns plain data. The game is built through the
public API only (``GameOfNim(board)``, ``initial``, ``actions``, ``result``, ``terminal_test``,
``utility``, ``to_move``), and ``games.py`` is always the pack's locked copy.

Tolerated on purpose (the handout does not grade them): a constructor parameter not named
``board``; player labels other than 'MAX'/'MIN' (labels are reported, the parent judges by
sign); moves as lists (reported, normalised to ``[r, n]`` here); print calls in methods.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import math

import harness_entries
import harness_kit
from harness_kit import plain

STRAY_LIMIT = 2000


# The class, as the course's main reaches it (``from game_of_nim import GameOfNim``):
# ``[entries] game`` in assignment.toml, resolved by ``harness_entries``.
_entry = harness_entries.Entries.beside(__file__)


def _accepts(cls, name: str) -> bool | None:
    """Whether ``cls(...)`` takes a parameter ``name``; None when the signature is unknown."""
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return None
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def new_game(board: list, rule: str = "misere"):
    """Build ``GameOfNim`` on a fresh copy of ``board``: keyword ``board=`` if the constructor
    has that parameter, else positionally. ``rule`` is passed only to a constructor that takes
    it (the reference does); a submission implements the course's rule itself."""
    if rule not in ("misere", "normal"):
        raise ValueError(f"unknown rule {rule!r}")
    cls = _entry("game")
    extra = {"rule": rule} if _accepts(cls, "rule") else {}
    try:
        return cls(board=list(board), **extra)
    except TypeError:
        if _accepts(cls, "board"):  # the student's own TypeError
            raise
        return cls(list(board), **extra)


def _walk(game, path: list):
    """The state reached from ``game.initial`` by playing the moves of ``path`` (as tuples)."""
    state = game.initial
    for move in path:
        state = game.result(state, tuple(move))
    return state


def _board(state):
    return plain(getattr(state, "board", state))


# A state as the parent reads it, field by field: a method that raises costs its field only.
FIELDS = {
    "to_move": lambda game, state: plain(game.to_move(state)),
    "board": lambda game, state: _board(state),
    "moves": lambda game, state: plain(list(game.actions(state))),
    "tuple_moves": lambda game, state: all(type(m) is tuple for m in game.actions(state)),
}
# What result() must leave alone in the state it is given.
INPUT = {name: FIELDS[name] for name in ("board", "moves")}


def summary(game, state) -> dict:
    """Turn, board and legal moves of ``state`` as plain data, and whether moves are tuples
    (``harness_kit.snapshot``: a field whose method raises is ``{"error": text}``)."""
    return harness_kit.snapshot(FIELDS, game, state)


def play(board: list, path: list, rule: str = "misere") -> dict:
    """Summaries of the initial state and of each state reached by playing ``path``, each step
    with whether ``result`` changed its input state (board or moves) and the input's board."""
    game = new_game(board, rule)
    state = game.initial
    out: dict = {"initial": summary(game, state), "steps": []}
    for move in path:
        before = harness_kit.snapshot(INPUT, game, state)  # plain data: a copy
        new = game.result(state, tuple(move))
        after = harness_kit.snapshot(INPUT, game, state)
        step = summary(game, new)
        step["input_mutated"] = after != before
        step["input_before"], step["input_after"] = before["board"], after["board"]
        out["steps"].append(step)
        state = new
    return out


def terminal(board: list, path: list, rule: str = "misere") -> bool:
    """``terminal_test`` of the state reached by ``path``, as a bool."""
    game = new_game(board, rule)
    return bool(game.terminal_test(_walk(game, path)))


def first_utility(board: list, path: list, rule: str = "misere") -> dict:
    """``utility(state, first)`` of the state reached by ``path``, where ``first`` is the label
    of the player who moved first (MAX in the handout).

    Only the first player is asked: "+1 if MAX wins, -1 if MIN wins" read literally (``player``
    ignored) and the AIMA reading (the value for ``player``) agree there, and nowhere else."""
    game = new_game(board, rule)
    first = game.to_move(game.initial)
    state = _walk(game, path)
    return {"player": plain(first), "value": plain(game.utility(state, first))}


def exact_values(game, player):
    """A memoised ``value(node, maximizing)``: the exact minimax value for ``player`` of
    ``node``, levels alternating MAX/MIN by depth as in alpha-beta, keyed on repr(node)."""
    memo: dict = {}

    def value(node, maximizing: bool):
        key = (repr(node), maximizing)
        if key not in memo:
            if game.terminal_test(node):
                memo[key] = game.utility(node, player)
            else:
                children = (value(game.result(node, a), not maximizing) for a in game.actions(node))
                pick = max if maximizing else min
                memo[key] = pick(children, default=-math.inf if maximizing else math.inf)
        return memo[key]

    return value


def fast_alpha_beta(state, game):
    """The move ``games.alpha_beta_search(state, game)`` returns, found by a memoised search.

    Alpha-beta at the root keeps the FIRST action whose exact minimax value is the largest
    (a fail-soft window (best, +inf) reports a value above ``best`` exactly and no other), so
    exact values suffice. Equal for any game whose methods are pure functions of the state;
    proved in tests/packs/game_of_nim/.
    """
    value = exact_values(game, game.to_move(state))
    best_score, best_action = -math.inf, None
    for action in game.actions(state):
        score = value(game.result(state, action), False)
        if score > best_score:
            best_score, best_action = score, action
    return best_action


def choose(board: list, path: list, rule: str = "misere"):
    """The alpha-beta move (pack's search on the submission's game) after ``path``, or None."""
    game = new_game(board, rule)
    return plain(fast_alpha_beta(_walk(game, path), game))


def move_values(board: list, path: list, rule: str = "misere") -> list:
    """Each legal move after ``path`` with its exact minimax value for the player to move."""
    game = new_game(board, rule)
    state = _walk(game, path)
    value = exact_values(game, game.to_move(state))
    return [[plain(a), plain(value(game.result(state, a), False))] for a in game.actions(state)]


class QuietGame:
    """The submission's game seen by the main program: its methods run with their printing
    captured aside, moves are shown as tuples, and the board is displayed as ``board: [...]``
    (the display format is not graded)."""

    def __init__(self, game, stray: io.StringIO, in_order: bool = False) -> None:
        self.game, self.stray, self.in_order = game, stray, in_order
        self.initial = self._quiet(lambda: game.initial)()

    def _quiet(self, function):
        def call(*args):
            with contextlib.redirect_stdout(self.stray):
                return function(*args)

        return call

    def __getattr__(self, name: str):  # result, terminal_test, utility, to_move
        return self._quiet(getattr(self.game, name))

    def actions(self, state):
        moves = [tuple(m) if isinstance(m, list) else m
                 for m in self._quiet(self.game.actions)(state)]
        if self.in_order:  # the handout's order: row by row, fewest objects first
            with contextlib.suppress(TypeError):
                moves = sorted(moves)
        return moves

    def display(self, state):
        print("board:", _board(state))


def replay(board: list, typed: list, rule: str = "misere", in_order: bool = False) -> dict:
    """Run play_nim's game on ``board``: the pack's search (as alpha_beta_player) against
    games.query_player typing the lines of ``typed``. Returns the transcript as a terminal would
    show it (typed text echoed after the prompt), the submission's own printing, what its
    display() printed, and the error that stopped the game early, if any. ``in_order``: the
    submission's moves put in the handout's order first (is the order all that differs?)."""
    import games
    import play_nim

    stray, transcript = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stray):
        student_game = new_game(board, rule)
    with contextlib.redirect_stdout(io.StringIO()) as shown:  # what display() prints, if it works
        broken = harness_kit.safe(lambda: student_game.display(student_game.initial))
    limit, error = sum(board), None
    turns = iter(range(limit))  # every legal move removes an object: the game ends by then

    def counted(player):
        def one_move(game, state):
            if next(turns, None) is None:  # moves that change nothing: stop, do not loop
                raise harness_kit.OutOfInput(f"the game did not end after {limit} moves")
            return player(game, state)

        return one_move

    try:
        with harness_kit.typed(typed, echo=transcript), contextlib.redirect_stdout(transcript):
            players = [counted(lambda g, s: fast_alpha_beta(s, g)), counted(games.query_player)]
            play_nim.announce(play_nim.play_verbose(QuietGame(student_game, stray, in_order),
                                                    *players))
    except harness_kit.OutOfInput as exc:  # typed answers used up, or a game that never ends
        error = str(exc)
    except Exception as exc:  # noqa: BLE001 - the student's error ends the game, reported
        error = harness_kit.error_text(exc)
    return {
        "transcript": transcript.getvalue(),
        "stray_output": stray.getvalue()[:STRAY_LIMIT],
        "error": error,
        "displayed": None if isinstance(broken, dict) else shown.getvalue()[:STRAY_LIMIT],
    }


def compat(board: list, rule: str = "misere") -> dict:
    """What the submission does that the handout does not grade: the constructor's parameter
    names, the player labels, and what its methods print during a short game (alpha-beta
    against itself, with the pack's search; an error there is graded elsewhere). The labels
    are who moves first and who moves after the first move (None when there is no move)."""
    try:
        names = [p for p in inspect.signature(_entry("game")).parameters if p != "self"]
    except (TypeError, ValueError):
        names = None
    players: list = []

    def self_play():
        game = new_game(board, rule)
        state, moves = game.initial, game.actions(game.initial)
        second = plain(game.to_move(game.result(state, moves[0]))) if moves else None
        players.extend([plain(game.to_move(state)), second])
        for _ in range(sum(board)):
            if game.terminal_test(state):
                break
            state = game.result(state, fast_alpha_beta(state, game))
        game.utility(state, game.to_move(game.initial))

    with contextlib.redirect_stdout(io.StringIO()) as printed:
        harness_kit.safe(self_play)
    return {"parameters": names, "labels": players, "printed": printed.getvalue()[:STRAY_LIMIT]}
