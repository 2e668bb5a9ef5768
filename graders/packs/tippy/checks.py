"""What a correct tippy submission answers (from ``oracle``), and the messages that say why not.

Also the handout's "less than a dozen lines of game_view.py": CODE lines only (no blank lines,
comments, docstrings or ``input()`` prompt wording); each differing run counts
``max(removed, added)``, as the engine's ``changed-lines`` rule does.
"""

from __future__ import annotations

import ast
import copy
import io
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from graders.packs.tippy import oracle
from graders.rules.changed_lines import hunks, region_lines
from graders.testing import expect_equal

# The parts of a driver summary a correct game must match exactly.
COMPARED = ("board", "over", "next_player", "winner", "outcome", "moves")
RESULT_KEYS = COMPARED[:-1]
ENDINGS = ("Beat ya!", "Congrats -- you won!!", "We tied...")


def to_move(cells: Sequence[Any]) -> str:
    """The player to move after ``cells`` were marked from the start (p1 first)."""
    return "p1" if len(cells) % 2 == 0 else "p2"


def summary(n: int, cells: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The driver summary a correct game gives after ``cells`` (a fresh copy each call)."""
    return copy.deepcopy(_summary(n, tuple((r, c) for r, c in cells)))


@cache
def _summary(n: int, cells: tuple[tuple[int, int], ...]) -> dict[str, Any]:
    board = oracle.replay(n, cells)
    status = oracle.status(board)
    winner = {"p1": status == "p1", "p2": status == "p2"}
    player = to_move(cells)
    outcome = 0.0 if status in (None, "tie") else 1.0 if winner[player] else -1.0
    return {"board": board, "over": status is not None, "next_player": player,
            "winner": winner, "outcome": outcome,
            "moves": [list(c) for c in oracle.legal_moves(board)]}


def equal(actual: Any, expected: Any, *, what: str) -> None:
    """Fail with a field-by-field diff unless equal (1 == 1.0)."""
    expect_equal(actual, expected, what=what, numbers_loosely=True)


def pick(found: dict[str, Any], keys: Sequence[str] = COMPARED) -> dict[str, Any]:
    """The compared parts of a driver summary."""
    return {key: found.get(key) for key in keys}


def picture(board: Sequence[str] | None) -> str:
    """A board as one line of rows for messages."""
    return " / ".join(board) if board else "(board could not be read)"


def game_text(cells: Sequence[Sequence[int]]) -> str:
    """'X(0,0) O(1,1) X(0,1)' for a move list starting with p1."""
    return " ".join(f"{'XO'[i % 2]}({r},{c})" for i, (r, c) in enumerate(cells)) or "(no move)"


def expect_steps(got: dict[str, Any], want: list[dict[str, Any]], n: int, cells, what: str = ""):
    """Every summary of a ``play(..., every_step=True)`` answer is the one expected."""
    assert got["stopped"] is None, f"could not play {game_text(cells)}: {got['stopped']}"
    steps = [*got["steps"], got["final"]]
    for i, expected in enumerate(want):
        equal(pick(steps[i] if i < len(steps) else {}), pick(expected),
              what=f"{n} x {n} after {game_text(cells[:i])}{what}")


def expect_games(results: list[dict], games: list, n: int, keys=RESULT_KEYS, names=None) -> None:
    """Each game's summary (``play_many``) is the rules' one, never ``stopped``; the first
    wrong game is shown, and how many are wrong."""
    def seen(got):
        return dict(pick(got, keys), stopped=got.get("stopped"))
    want = [dict(pick(summary(n, cells), keys), stopped=None) for cells in games]
    wrong = [i for i, got in enumerate(results) if seen(got) != want[i]]
    if wrong:
        i = wrong[0]
        equal(seen(results[i]), want[i], what=f"{len(wrong)} of {len(games)} games on {n} x {n} "
              f"are wrong; first: {names[i] + ', ' if names else ''}after "
              f"{game_text(games[i])}, board {picture(oracle.replay(n, games[i]))}")


def describe(position: dict[str, Any]) -> str:
    """A minimax position for messages."""
    n = len(position["board"])
    return (f"{n} x {n} board {picture(position['board'])}, {position['player']} "
            f"({oracle.MARK_OF[position['player']]}) to move")


def opening_moves(worker: Any, n: int) -> dict[str, Any]:
    """``move_facts`` for n, after checking the moves stand for every square once."""
    got = worker.call("move_facts", n)
    label = "moves that mark no single new square"
    equal({"squares": got["cells"], label: got["odd_moves"]},
          {"squares": [[r, c] for r in range(n) for c in range(n)], label: []},
          what=f"possible_next_moves() of a new {n} x {n} game (squares told by {got['how']})")
    return got


def game_view_lines(got: dict[str, Any], what: str) -> list[str]:
    """The transcript of a ``run_game_view`` that ended with one of the starter's messages."""
    lines = got["transcript"].strip().splitlines()
    tail = "\n".join(lines[-6:])
    assert got["error"] is None, f"{what}: game_view.py stopped with {got['error']}; its " \
        f"last lines:\n{tail}"
    assert lines and lines[-1] in ENDINGS, f"{what}: the game did not end with one of the " \
        f"starter's messages {ENDINGS}; its last lines:\n{tail}"
    return lines


def offers_tippy_and_minimax(worker: Any) -> None:
    """Answering t, then m plays the student's tippy against StrategyMinimax (every game_view
    case needs it: the rest earns nothing for a file that does not hook the game up)."""
    got = worker.call("run_game_view", ["t", "m", ""])
    game_view_lines(got, "answering t (tippy), then m (minimax)")
    assert got["tippy_moves"] > 0, "answering t did not start a game of your TippyGameState"
    assert got["minimax_calls"] > 0, "answering m did not make the computer use StrategyMinimax"


@dataclass(frozen=True)
class CodeLines:
    """The code of a file, one entry per line that holds some: (line number, text)."""

    lines: list[tuple[int, str]]
    menus: frozenset[int]


def _docstring(node: ast.AST) -> ast.stmt | None:
    body = getattr(node, "body", None)
    if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) \
            and body and isinstance(body[0], ast.Expr) \
            and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        return body[0]
    return None


def code_lines(source: str) -> CodeLines:
    """The code lines of source, what does not count left out (SyntaxError if unparsable)."""
    tree = ast.parse(source)
    raw = [line + b"\n" for line in source.encode().split(b"\n")]
    skip: set[int] = set()
    prompts: list[ast.expr] = []
    for node in ast.walk(tree):
        doc = _docstring(node)
        if doc is not None:
            skip.update(range(doc.lineno, (doc.end_lineno or doc.lineno) + 1))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "input":
            prompts += [a for a in node.args if isinstance(a, ast.Constant | ast.JoinedStr)]
    for arg in sorted(prompts, key=lambda a: (a.lineno, a.col_offset), reverse=True):
        end = arg.end_lineno or arg.lineno
        raw[arg.lineno - 1] = raw[arg.lineno - 1][:arg.col_offset] + b"''" + \
            raw[end - 1][arg.end_col_offset or 0:]
        raw[arg.lineno:end] = [b"\n"] * (end - arg.lineno)
    text = b"".join(raw).decode(errors="replace")
    rows = text.splitlines()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                rows[token.start[0] - 1] = rows[token.start[0] - 1][:token.start[1]]
    except (tokenize.TokenError, SyntaxError):
        pass
    kept = [(i + 1, row.strip()) for i, row in enumerate(rows) if row.strip() and i + 1 not in skip]
    return CodeLines(kept, region_lines(tree, ["imports", "main"]))


@dataclass(frozen=True)
class Changes:
    """How a file's code differs from the starter's: changed lines, and those outside the
    imports and the ``__main__`` block (a removed starter line at the nearest line of source)."""

    count: int
    outside: list[int]


def changes(starter: str, source: str) -> Changes:
    """Changed code lines of source against starter."""
    old, new = code_lines(starter), code_lines(source)
    count, outside = 0, []
    for hunk in hunks([t for _, t in old.lines], [t for _, t in new.lines]):
        removed, added = old.lines[hunk.t_start:hunk.t_end], new.lines[hunk.s_start:hunk.s_end]
        count += max(len(removed), len(added))
        outside += [n for n, _ in added if n not in new.menus]
        if any(n not in old.menus for n, _ in removed):
            outside.append(new.lines[min(hunk.s_start, len(new.lines) - 1)][0] if new.lines else 1)
    return Changes(count, sorted(set(outside)))


def outside_text(source: str) -> str:
    """The counted code of source outside its menus, one line each (for a side-by-side diff)."""
    found = code_lines(source)
    return "\n".join(text for number, text in found.lines if number not in found.menus)
