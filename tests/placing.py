"""Where each pack's attack batch sits in the collection, so that no worker waits for one.

An attack batch plants canaries in its pack's trees, so while it runs no other entry of that
pack is made or read (:meth:`tests.run_cache.RunCache.once` with ``alone``): a worker that
needs the pack's graded samples or kit meanwhile sits idle for minutes. ``--dist worksteal``
first hands worker *i* the next ``len(pending) // (workers - i)`` tests of the collection and
later steals only from the end of a queue, so the head of each worker's run is known. The
attack tests of each pack move to the head of one worker's run, the packs spread so the
workers' shares of attacks are about even: all batches are made first, side by side, before
any worker reaches another entry of their packs.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

WRITER = "attacked"  # the fixture that makes a pack's attack batch (tests/attacks)


def writers_first(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` with each pack's attack tests at the head of one worker's first share; the
    order is unchanged for one worker, or when the attack tests fill the shares."""
    by_pack: dict[str, list[pytest.Item]] = defaultdict(list)
    for item in items:
        pack_id = _pack_of(item)
        if pack_id is not None:
            by_pack[pack_id].append(item)
    if workers < 2 or not by_pack:
        return items
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    # The pack with most attacks first, each to the worker holding fewest so far.
    for pack_id in sorted(by_pack, key=lambda p: (-len(by_pack[p]), p)):
        min(heads, key=len).extend(by_pack[pack_id])
    moved = {id(item) for head in heads for item in head}
    rest = [item for item in items if id(item) not in moved]
    placed: list[pytest.Item] = []
    for index, head in enumerate(heads):
        share = (len(items) - len(placed)) // (workers - index)
        if share < len(head):
            return items
        placed += head + rest[:share - len(head)]
        rest = rest[share - len(head):]
    return placed + rest


def _pack_of(item: pytest.Item) -> str | None:
    """The pack whose attack batch ``item`` reads, if it reads one."""
    callspec = getattr(item, "callspec", None)
    if callspec is None or WRITER not in getattr(item, "fixturenames", ()):
        return None
    pack_id = callspec.params.get("pack_id")
    return pack_id if isinstance(pack_id, str) else None
