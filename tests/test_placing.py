"""The suite's own order: each pack's attack batch heads one worker's first share."""

from __future__ import annotations

from types import SimpleNamespace

from tests.placing import writers_first


def _item(name: str, pack_id: str | None = None, writer: bool = False):
    params = {"pack_id": pack_id} if pack_id else {}
    return SimpleNamespace(name=name, callspec=SimpleNamespace(params=params),
                           fixturenames=["attacked"] if writer else ["sample_results"])


def _shares(items: list, workers: int) -> list[list[str]]:
    """What ``--dist worksteal`` first hands each worker."""
    shares, pending = [], [item.name for item in items]
    for index in range(workers):
        count = len(pending) // (workers - index)
        shares.append(pending[:count])
        pending = pending[count:]
    return shares


def test_each_attack_batch_heads_a_share_and_the_shares_are_even():
    items = [_item(f"t{n}", "altnim") for n in range(30)]
    items += [_item(f"a{n}", "altnim", writer=True) for n in range(6)]
    items += [_item(f"s{n}", "stonehenge", writer=True) for n in range(3)]
    items += [_item(f"p{n}", "pnt", writer=True) for n in range(2)]
    placed = writers_first(items, 2)
    assert sorted(item.name for item in placed) == sorted(item.name for item in items)
    first, second = _shares(placed, 2)
    assert first[:6] == [f"a{n}" for n in range(6)]
    assert second[:5] == ["s0", "s1", "s2", "p0", "p1"]
    assert [name for name in first + second if name.startswith("t")] == \
        [f"t{n}" for n in range(30)]


def test_one_worker_or_no_attack_keeps_the_order():
    items = [_item("t0", "altnim"), _item("a0", "altnim", writer=True), _item("t1")]
    assert writers_first(items, 1) == items
    plain = [_item("t0", "altnim"), _item("t1")]
    assert writers_first(plain, 2) == plain


def test_attacks_that_fill_the_shares_keep_the_order():
    items = [_item(f"a{n}", "altnim", writer=True) for n in range(5)] + [_item("t0")]
    assert writers_first(items, 2) == items
