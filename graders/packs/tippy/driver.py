"""Child-side driver for the tippy pack: plays the student's code through the starter API.

Stdlib only, never imports ``graders``. A game is ``TippyGameState('p1', interactive=True)``
(the size prompt answered by ``harness_kit.typed``), driven with ``possible_next_moves()``,
``apply_move()``, ``over``, ``next_player``, ``winner()`` and ``outcome()``; the classes are
the pack's declared entries (``[entries]`` in assignment.toml, resolved by
``harness_entries``), each move's square is found by ``driver_moves.py``. The board is never
read: answers carry the driver's own record ('X' p1, 'O' p2, '.' empty). Helpers are imported
under private names so that they are not operations.
"""

import contextlib
import io
import random

import driver_moves as _moves
import harness_entries as _entries
import harness_kit as _kit

_safe, _text, _child = _kit.safe, _moves.text_of, _moves.child_of
_entry = _entries.Entries.beside(__file__)
# What a summary reads of a state: its own answers, each field's error its own.
_FACTS = {"over": "over", "next_player": "next_player", "outcome": "outcome()", "text": str,
          "repr": repr}
_WINNERS = {player: (lambda state, p=player: state.winner(p)) for player in ("p1", "p2")}


def _board(n, cells):
    rows = [["."] * n for _ in range(n)]
    for i, (r, c) in enumerate(cells):
        rows[r][c] = "XO"[i % 2]
    return ["".join(row) for row in rows]


class _Game:
    """A student's game after some squares, the moves used to get there, and why it stopped
    early (None, or {"at": index, "cell": [r, c], "why": text}); ``steps``, when a list,
    receives the summary before each move."""

    def __init__(self, n, cells=(), steps=None):
        self.n = n
        self.reader = _moves.reader_for(n, _entry("state"))
        self.state = _moves.new_game(n, _entry("state"))
        self.found, self.odd = _moves.moves_of(self.state, self.reader)
        self.cells, self.used, self.stopped = [], [], None
        for i, cell in enumerate(cells):
            if steps is not None:
                steps.append(self.summary())
            why = self.play(cell)
            if why is not None:
                self.stopped = {"at": i, "cell": list(cell), "why": why}
                break

    def play(self, cell):
        """Mark cell; return None, or why it could not be marked."""
        move = self.found.get(cell := tuple(cell))
        if move is None:
            return "no move from possible_next_moves() stands for this square"
        child = self.state.apply_move(move)
        if child is None:
            return f"apply_move({_text(move)[:80]}) returned None for a free square"
        found, odd = _moves.moves_of(child, self.reader)
        if cell in found:
            return (f"after apply_move({_text(move)[:80]}) the square is still among the "
                    "possible next moves")
        self.state, self.found, self.odd = child, found, odd
        self.cells.append(list(cell))
        self.used.append(move)
        return None

    def summary(self, with_moves=True):
        """Plain facts: board (the driver's record), over, next_player, winners, outcome."""
        facts = {"board": _board(self.n, self.cells),
                 **_kit.snapshot(_FACTS, self.state, convert=_kit.scalar),
                 "winner": _kit.snapshot(_WINNERS, self.state, convert=_kit.scalar)}
        if with_moves:
            facts.update(moves=sorted([r, c] for r, c in self.found), odd_moves=self.odd)
        else:  # whether play goes on: a game that never ends is more than an `over` slip
            facts["offers_moves"] = bool(self.found)
        return facts

    def squares(self, state):
        """The squares state's legal moves stand for (None for no state)."""
        return None if state is None else set(_moves.moves_of(state, self.reader)[0])

    def right_child(self, result, cell):
        """Whether result is a new state where cell is taken and the other player moves."""
        if result is None or result is self.state:
            return False
        return cell not in self.squares(result) and \
            _safe(lambda: result.next_player) == _safe(self.state.opponent)

    def fingerprint(self):
        """What applying a move must not change in this state: moves, turn, end, text."""
        state = self.state
        return (sorted(self.squares(state)), _safe(lambda: state.next_player),
                _safe(lambda: state.over), _text(state, str))


def play(n, cells, every_step=False):
    """{"final": summary after cells, "steps": [summary before each move] if every_step,
    "stopped": None or {"at": index, "cell": [r, c], "why": text}}."""
    steps = []
    game = _Game(n, cells, steps if every_step else None)
    return {"final": dict(game.summary(), own_instructions=_own_instructions(game.state)),
            "steps": steps, "stopped": game.stopped}


def _own_instructions(state):
    """True if state's instructions are some text other than GameState's placeholder."""
    from game_state import GameState

    return _safe(lambda: isinstance(state.instructions, str) and bool(state.instructions.strip())
                 and state.instructions != GameState("p1").instructions)


def play_many(n, games):
    """The final summary (without moves) and "stopped" for each cell list in games."""
    return [dict(game.summary(with_moves=False), stopped=game.stopped)
            for game in (_Game(n, cells) for cells in games)]


def rough_outcomes(n, games):
    """rough_outcome() after each cell list in games (None if unreached)."""
    return [None if game.stopped else _safe(game.state.rough_outcome)
            for game in (_Game(n, cells) for cells in games)]


def apply_effects(n, cells):
    """Apply each legal move once, directly on the state after cells: per move, whether the
    state stayed as it was and the result is right (square taken, other player to move).
    Stops at the first move that changes the state (spoilt after it)."""
    game, checks = _Game(n, cells), []
    for cell, move in [] if game.stopped else sorted(game.found.items()):
        before, result = game.fingerprint(), game.state.apply_move(move)
        after = game.fingerprint()
        checks.append({"move": _text(move)[:100], "cell": list(cell),
                       "returned_self": result is game.state, "state_unchanged": before == after,
                       "result_right": game.right_child(result, cell),
                       "moves_before": len(before[0]), "moves_after": len(after[0])})
        if before != after:
            break
    return {"stopped": game.stopped, "checks": checks}


def replay_taken(n, cells, after_end=False):
    """Re-apply every move already played (a taken square: apply_move must return None) to the
    state after cells, then, if after_end (the game is over), an opening move per empty square:
    {"final": summary after cells if after_end, "stopped": as play's, "results": [{"cell":
    [r, c], "returned_none": bool, "result": text or None}]}."""
    game = _Game(n, cells)
    final = game.summary() if after_end else None
    if game.stopped:
        return {"final": final, "stopped": game.stopped, "results": []}
    tries = list(zip(game.cells, game.used, strict=True))
    if after_end:
        opening = _Game(n).found
        tries += [(list(cell), opening[cell]) for cell in sorted(opening)
                  if list(cell) not in game.cells]
    results = []
    for cell, move in tries:
        result = _child(game.state, move)
        results.append({"cell": cell, "returned_none": result is None,
                        "result": None if result is None else _text(result, str)[:300]})
    return {"final": final, "stopped": None, "results": results}


def _suggest(game):
    """{"cell": [r, c] or None, "why": text or None} for StrategyMinimax on the game."""
    before = game.fingerprint()
    move = _entry("minimax")(interactive=False).suggest_move(game.state)
    if game.fingerprint() != before:
        return {"cell": None, "why": "suggest_move changed the state it was given"}
    cell = game.reader.cell(move) if move is not None else None
    if cell is None or cell not in game.found:
        return {"cell": None, "why": f"suggested {_text(move)[:80]}, which is not one of the "
                "legal moves"}
    if _child(game.state, move) is None:
        return {"cell": None, "why": f"suggested {_text(move)[:80]}, which apply_move refuses"}
    return {"cell": list(cell), "why": None}


def minimax_move(n, cells):
    """The square StrategyMinimax(interactive=False) suggests after cells."""
    game = _Game(n, cells)
    if game.stopped:
        return {"cell": None, "why": "could not set up the position: " + game.stopped["why"]}
    return _suggest(game)


def minimax_vs_random(n, cells, seeds):
    """StrategyMinimax, to move after cells, against random.Random(seed) picking among the
    legal squares in row-major order: per seed {"cells": squares marked from the position on,
    "why": None or why the game stopped early}."""
    games = []
    for seed in seeds:
        game = _Game(n, cells)
        if game.stopped:
            return [{"cells": [], "why": "could not set up the position: " + game.stopped["why"]}]
        side, rng, start, why = game.state.next_player, random.Random(seed), len(game.cells), None
        while not game.state.over and why is None:
            if game.state.next_player == side:
                answer = _suggest(game)
                cell, why = answer["cell"], answer["why"]
            else:
                free = sorted(game.found)
                cell = list(free[rng.randrange(len(free))]) if free else None
                why = None if free else "no legal move for the random player"
            if why is None:
                why = game.play(cell)
        games.append({"cells": game.cells[start:], "why": why})
    return games


def move_facts(n):
    """TippyMove through the game: one move per empty square, its texts, and reuse (every
    other opening move, applied two moves later, the same player to move again, takes its own
    square, and only it: a move may carry its player, as GameView never applies a move on
    the other player's turn)."""
    game = _Game(n)
    cells = sorted(game.found)
    texts = [[_safe(lambda m=game.found[c]: repr(m)), _safe(lambda m=game.found[c]: str(m))]
             for c in cells]
    later = None
    if len(cells) > 2:
        first = _child(game.state, game.found[cells[0]])
        replies = _moves.moves_of(first, game.reader)[0] if first is not None else {}
        later = _child(first, replies[cells[1]]) if cells[1] in replies else None
    free, broken = game.squares(later) or set(), []
    for cell in cells[2:]:
        left = game.squares(_child(later, game.found[cell]) if later is not None else None)
        if left != free - {cell}:
            broken.append({"cell": list(cell),
                           "took": None if left is None else sorted(list(c) for c in free - left)})
    return {"cells": [list(c) for c in cells], "odd_moves": game.odd, "texts": texts,
            "not_reusable": broken, "how": game.reader.where, "typed": _typed_squares(game)}


def _typed_squares(game):
    """The squares get_move() gives a move for, answered a square number, 'row col',
    'row,col', or row and column on two prompts, counted from 0 or 1 (its text is the
    student's choice)."""
    n, found, crashed = game.n, set(), []
    numbers = range(n + 1)
    scripts = [[str(i)] for i in range(n * n + 1)]
    scripts += [[f"{r}{sep}{c}"] for sep in (" ", ",") for r in numbers for c in numbers]
    scripts += [[str(r), str(c)] for r in numbers for c in numbers]
    for script in scripts:
        try:
            with _kit.typed(script), contextlib.redirect_stdout(io.StringIO()):
                move = game.state.get_move()
            cell = game.reader.cell(move) if move is not None else None
        except (Exception, _kit.OutOfInput):  # noqa: BLE001 - a refused answer gives no square
            continue
        if cell is not None:
            found.add(cell)
        else:  # off the board: apply_move must refuse it (GameView then asks again)
            try:
                _child(game.state, move)
            except Exception as exc:  # noqa: BLE001 - the student's crash is the answer
                crashed.append(f"typed {script}: " + _kit.error_text(exc, 180))
    return {"squares": sorted([r, c] for r, c in found), "crashed": crashed}


def minimax_subtract_square(total):
    """The amount StrategyMinimax removes from SubtractSquareState('p1', total)."""
    from subtract_square_state import SubtractSquareState

    move = _entry("minimax")(interactive=False).suggest_move(
        SubtractSquareState("p1", current_total=total))
    return _safe(lambda: move.amount)


def run_game_view(answers, later="3", limit=60):
    """Run game_view.py as __main__, input() answering from answers, then `later`; get_move
    and suggest_move are counting stand-ins playing the first legal move (the hook-up is graded
    here). {"transcript", "error", "tippy_moves", "minimax_calls"}."""
    import runpy

    import subtract_square_state

    calls = {"tippy": 0, "minimax": 0, "subtract": 0}

    def counted(kind):
        def first_move(self, *args):
            calls[kind] += 1
            return (args[0] if args else self).possible_next_moves()[0]
        return first_move

    swaps = [(cls, "get_move", counted("tippy")) for cls in _view_classes("state")]
    swaps += [(cls, "suggest_move", counted("minimax")) for cls in _view_classes("minimax")]
    swaps.append((subtract_square_state.SubtractSquareState, "get_move", counted("subtract")))
    out, error = io.StringIO(), None
    random.seed(0)  # the starter's random strategy: one program, one transcript, every run
    try:
        with _kit.patched(*swaps), _kit.typed(answers, later, out, limit), \
                contextlib.redirect_stdout(out):
            runpy.run_path("game_view.py", run_name="__main__")
    except _kit.DiedImporting:  # the worker tells what that module's import did
        raise
    except BaseException as exc:  # noqa: BLE001 - SystemExit too: the transcript says why
        error = _kit.error_text(exc)
    return {"transcript": out.getvalue()[-20000:], "error": error,
            "tippy_moves": calls["tippy"], "minimax_calls": calls["minimax"]}


def _view_classes(kind):
    """The classes game_view.py may play for kind: the graded one and the menu's (one not
    found is not stood in for: the game view then fails on its own)."""
    found = {_entry.by(kind, "menu")}
    with contextlib.suppress(_entries.EntryNotFound):
        found.add(_entry(kind))
    return [cls for cls in found if cls is not None]
