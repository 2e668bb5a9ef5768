"""Stonehenge driver: runs in the sandboxed child, stdlib only, returns plain data.

Every operation reaches the submission through the starter API only: the game and the
strategies are the pack's declared entries (``[entries]`` in assignment.toml, resolved by
``harness_entries``: ``game_interface.playable_games['h']`` and ``usable_strategies['mr' /
'mi']``, whatever they are called and whichever of the student's modules defines them), the
game's single ``input()`` call (typed), ``str_to_move``, ``make_move``, ``is_over``,
``is_winner``, ``str``, ``repr`` and ``rough_outcome``. Positions arrive as a side length, who
starts, and a list of cell letters.

Where one value of a snapshot raises, only that field becomes ``{"error": "..."}``, so one broken
method costs the tests of that method and not the others.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import harness_entries
import harness_kit
from harness_kit import patched, typed

_entry = harness_entries.Entries.beside(__file__)


def _alias_missing_names() -> None:
    """On a mixed workspace (the student's files over the instructor's stonehenge.py), let
    the student's ``from stonehenge import X`` (in any of their modules) find the instructor's
    classes whatever X is called."""
    import stonehenge

    for path in sorted(Path(".").rglob("*.py")):
        tree, _ = harness_kit.read_tree(path)
        for bound in harness_kit.bindings(tree).values() if tree else []:
            if isinstance(bound, tuple) and bound[0] == "stonehenge" and bound[1] and \
                    not hasattr(stonehenge, bound[1]):
                kind = "State" if "state" in bound[1].lower() else "Game"
                setattr(stonehenge, bound[1], getattr(stonehenge, f"Stonehenge{kind}"))


def _new_game(side: int | str, p1_starts: bool, moves: list[str] | None = None,
              game: str = "game") -> tuple[Any, list[str]]:
    """The declared entry ``game`` (``[entries]``: the student's, the instructor's, subtract
    square) started with ``side`` typed at its one prompt, then ``moves`` played as
    GameInterface plays them (``str_to_move``, ``make_move``); and the prompts asked."""
    with typed(then=str(side)) as prompts:
        started = _entry(game)(p1_starts)
    for letter in moves or []:
        started.current_state = started.current_state.make_move(started.str_to_move(letter))
    return started, prompts


def _winners(game: Any, state: Any) -> dict[str, bool]:
    with patched((game, "current_state", state)):
        return {player: bool(game.is_winner(player)) for player in ("p1", "p2")}


def _rough(game: Any, state: Any) -> Any:
    value = state.rough_outcome()
    return value if isinstance(value, int | float) and not isinstance(value, bool) else repr(value)


# What each snapshot field asks of the game and the state.
_FIELDS = {
    "board": lambda game, state: str(state),
    "player": lambda game, state: str(state.get_current_player_name()),
    "moves": lambda game, state: [str(move) for move in state.get_possible_moves()],
    "over": lambda game, state: bool(game.is_over(state)),
    "winners": _winners,
    "repr": lambda game, state: repr(state),
    "rough": _rough,
}


def _snapshot(game: Any, fields: list[str]) -> dict[str, Any]:
    """The game's current state, field by field (``harness_kit.snapshot``)."""
    return harness_kit.snapshot({name: _FIELDS[name] for name in fields}, game,
                                game.current_state)


def interface() -> dict[str, Any]:
    """What the student's game_interface names: game keys, strategy keys, the 'h' class."""
    module = harness_kit.import_student("game_interface")
    games, strategies = module.playable_games, module.usable_strategies
    return {
        "games": sorted(str(key) for key in games),
        "strategies": sorted(str(key) for key in strategies),
        "h_is_class": isinstance(games.get("h"), type),
        "callable": {key: callable(strategies.get(key)) for key in ("i", "mr", "mi")},
    }


def new_game(side: int, p1_starts: bool = True) -> dict[str, Any]:
    """Build a game: the prompts of its ``input()`` calls, and the new state."""
    game, prompts = _new_game(side, p1_starts)
    return {"prompts": prompts, **_snapshot(game, ["board", "player", "moves"])}


def trace(side: int, p1_starts: bool, moves: list[str],
          fields: list[str] | None = None) -> list[dict[str, Any]]:
    """Snapshots of the start position and of the position after each move.

    Moves go through ``str_to_move`` and ``make_move``, as GameInterface plays them. A move
    that raises ends the trace with ``{"error": ...}`` as its last element.
    """
    wanted = list(fields or _FIELDS)
    game, _ = _new_game(side, p1_starts)
    snaps = [_snapshot(game, wanted)]
    for letter in moves:
        try:
            game.current_state = game.current_state.make_move(game.str_to_move(letter))
        except Exception as exc:
            snaps.append({"error": harness_kit.error_text(exc)})
            break
        snaps.append(_snapshot(game, wanted))
    return snaps


def make_move_effect(side: int, p1_starts: bool, moves: list[str], move: str,
                     through_str_to_move: bool = False) -> dict[str, Any]:
    """Call ``make_move`` (with the raw string unless asked otherwise) and report whether the
    state it was called on, and the game's current state, changed."""
    game, _ = _new_game(side, p1_starts, moves)
    state = game.current_state
    before = _looks(state)
    result = state.make_move(game.str_to_move(move) if through_str_to_move else move)
    return {
        "state_unchanged": _looks(state) == before,
        "current_state_same_object": game.current_state is state,
        "new_object": result is not state,
        "board_after": str(result),
    }


def _looks(state: Any) -> tuple[Any, ...]:
    """How a state looks from outside (its board, repr and player to move), to tell whether
    a call changed it. A view that raises is its error: a missing or broken ``__repr__`` costs
    the repr tests, not every test that asks whether a state was left alone."""
    return tuple(harness_kit.safe(view) for view in (
        lambda: str(state), lambda: repr(state), lambda: state.get_current_player_name()))


def moves_check(side: int, p1_starts: bool, moves: list[str],
                strings: list[str]) -> dict[str, bool]:
    """For each string: is ``str_to_move(string)`` a valid move of the current state?"""
    game, _ = _new_game(side, p1_starts, moves)
    return {text: bool(game.current_state.is_valid_move(game.str_to_move(text)))
            for text in strings}


# usable_strategies' keys, and the entries ([entries]) that reach them.
_STRATEGIES = {"mr": "recursive", "mi": "iterative"}


def _strategy(key: str, mixed: bool, instructor: bool = False):
    """The student's ``usable_strategies[key]`` (on a mixed workspace, their modules' imports
    of the instructor's stonehenge.py aliased first), or the instructor's strategy."""
    if instructor:
        return _entry(f"instructor_{_STRATEGIES[key]}")
    if mixed:
        _alias_missing_names()
    return _entry(_STRATEGIES[key])


def _watching_recursion(func: Any, game: Any) -> tuple[Any, str | None]:
    """Run ``func(game)`` under the sandbox guard's recursion watch (``child_guard``), which
    names the first function of func's file (strategy.py unless func comes from elsewhere)
    entered while already running (direct or mutual recursion), if any. Student code cannot
    switch the watch off or reach its state, and what it found also reaches the parent outside
    this answer (``Worker.watches``). In-process driver tests put a profiler in its place."""
    code = getattr(func, "__code__", None)
    finding: dict[str, Any] = {}
    sys.audit("graders.recursion.start", Path(code.co_filename).name if code else "strategy.py")
    try:
        move = func(game)
    finally:
        sys.audit("graders.recursion.stop", finding)
    return move, finding.get("recursion")


def strategy(key: str, side: int = 0, p1_starts: bool = True, moves: list[str] | None = None,
             total: int | None = None, watch_recursion: bool = False,
             mixed: bool = False, instructor: bool = False) -> dict[str, Any]:
    """Ask the strategy ``usable_strategies[key]`` for a move.

    On subtract square when ``total`` is given, else on Stonehenge after ``moves``. ``mixed``:
    the student's strategy on the instructor's game; ``instructor``: the instructor's strategy
    on the student's game. Reports the move (as ``str``), whether the game's current state was
    left as it was and, when watched, the recursive function found.
    """
    func = _strategy(key, mixed, instructor)
    if total is not None:
        game, _ = _new_game(total, p1_starts, game="subtract_square")
    else:
        game, _ = _new_game(side, p1_starts, moves, "instructor_game" if mixed else "game")
    state = game.current_state
    before = _looks(state)
    move, recursive = _watching_recursion(func, game) if watch_recursion else (func(game), None)
    return {
        "move": None if move is None else str(move),
        "recursion": recursive,
        "state_kept": game.current_state is state and _looks(state) == before,
    }


def subtract_square(key: str, totals: list[int], mixed: bool = False) -> list[str | None]:
    """The move ``usable_strategies[key]`` picks on subtract square from each total (one call
    for all totals, so a hanging strategy costs one time-out, not one per total)."""
    return [strategy(key, total=total, mixed=mixed)["move"] for total in totals]


def play_interface(side: int, p1_starts: bool, moves: list[str]) -> dict[str, Any]:
    """Play ``moves`` through the student's ``game_interface.GameInterface`` (the starter's
    loop) on ``playable_games['h']``, both players scripted: the first ``input()`` answers
    who starts, the next the side length, any further one gets ``""``.

    Reports the moves the loop asked for, those left over, and whether the game was over when
    ``play()`` returned. A loop that asks for a move after the script ends raises (the game
    did not end when it should have); what it printed is the call's output."""
    module = harness_kit.import_student("game_interface")
    script, played = list(moves), list[str]()

    def scripted(game: Any) -> Any:
        if not script:
            raise RuntimeError("the game asked for another move after "
                               f"{' '.join(played)}, where it should be over")
        played.append(script.pop(0))
        return game.str_to_move(played[-1])

    with typed(["y" if p1_starts else "n", str(side)], then=""):
        ui = module.GameInterface(module.playable_games["h"], scripted, scripted)
        ui.play()
    return {"played": played, "left": script,
            "over": bool(ui.game.is_over(ui.game.current_state))}
