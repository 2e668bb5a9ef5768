"""Boards as printed, for a diff compared token by token: a check that reads a board as
tokens (a board game's markers and cells) keeps both boards as printed in its details
(``details["boards"] = {"expected", "got", "token"}``); the student page shows them side by
side with the differing tokens marked, so the student sees what they printed, not tokens."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

Parts = list[tuple[str, bool]]  # (text, differs) pieces of one printed line


def printed_boards(boards: Mapping[str, Any]) -> dict[str, list[Parts]]:
    """``{"expected": lines, "got": lines}``, each line as :data:`Parts`: a token differs
    when the other board's token row at the same place holds another token or none."""
    token = re.compile(str(boards.get("token") or r"\S+"))
    texts = {side: str(boards.get(side) or "") for side in ("expected", "got")}
    rows = {side: [token.findall(line) for line in text.splitlines() if token.search(line)]
            for side, text in texts.items()}
    return {side: _marked(texts[side], rows[other], token)
            for side, other in (("expected", "got"), ("got", "expected"))}


def _marked(text: str, other_rows: list[list[str]], token: re.Pattern[str]) -> list[Parts]:
    lines: list[Parts] = []
    row = 0
    for line in text.splitlines():
        found = list(token.finditer(line))
        other = other_rows[row] if found and row < len(other_rows) else []
        parts: Parts = []
        last = 0
        for index, match in enumerate(found):
            parts.append((line[last:match.start()], False))
            parts.append((match.group(), index >= len(other) or other[index] != match.group()))
            last = match.end()
        parts.append((line[last:], False))
        row += bool(found)
        lines.append([part for part in parts if part[0]])
    return lines
